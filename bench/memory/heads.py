#!/usr/bin/env python3
"""Memory of `patience serve` under a flood of unfinished request heads.

Starts the given `patience` binary on 127.0.0.1 (a free port) over a fresh
database, opens N connections that each send a request head of KB kilobytes
without its end, and prints the server's resident memory before, during and
after the flood (the connections closed, then WAIT seconds later).
Usage: heads.py PATIENCE_BINARY [N] [KB] [WAIT]
"""
import os, socket, subprocess, sys, tempfile, time

binary = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
kb = int(sys.argv[3]) if len(sys.argv) > 3 else 30
wait = float(sys.argv[4]) if len(sys.argv) > 4 else 12

def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0

with tempfile.TemporaryDirectory() as d:
    server = subprocess.Popen([binary, "serve", "--port", "0", "--db", os.path.join(d, "p.db")],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    host, port = line.strip().rsplit("//", 1)[1].split(":")
    time.sleep(0.5)
    before = rss_mb(server.pid)
    socks = []
    pad = b"a" * 1000
    for _ in range(n):
        s = socket.create_connection((host, int(port)))
        try:
            s.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for i in range(kb):
                s.sendall(b"x-pad-%d: " % i + pad + b"\r\n")
        except OSError:
            pass  # refused past the head limit
        socks.append(s)
    time.sleep(1)
    during = rss_mb(server.pid)
    for s in socks:
        s.close()
    time.sleep(wait)
    after = rss_mb(server.pid)
    print(f"{n} unfinished {kb} KB heads: server memory {before:.0f} MB before, "
          f"{during:.0f} MB during, {after:.0f} MB {wait:.0f} s after they closed")
    server.terminate()
    server.wait()
