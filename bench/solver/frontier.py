#!/usr/bin/env python3
"""The frontier table of docs/solver.md from bench/solver/frontier.sh's surveys.

    bench/solver/frontier.py --out DIR [--budget time|nodes] --rate R --doc FILE \
        --command CMD [--block NAME] [--jobs N] GAME=A..B...

Reads DIR/GAME.A-B.1s.jsonl (every deal, the 1-s budget) and
DIR/GAME.A-B.10s.jsonl (the deals left unknown, solved again with the 10-s
budget) and writes one Markdown row a game between the `<!-- NAME -->`
markers of FILE (NAME is `frontier` unless `--block` names another table,
such as one measured under the other kind of budget), or prints the table
when FILE is `-`.
"""
import argparse
import json
import math
import pathlib
import re


def pct(sorted_values, q):
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, int(math.ceil(q * len(sorted_values))) - 1)
    return sorted_values[max(i, 0)]


def read(path):
    if not path.exists():
        return {}
    deals = {}
    for line in path.read_text().splitlines():
        if line.strip():
            d = json.loads(line)
            deals[d["deal"]] = d
    return deals


def figures(deals):
    n = len(deals)
    won = sum(d["result"] == "win" for d in deals)
    lost = sum(d["result"] == "no-win" for d in deals)
    cpu = sorted(d["cpu_milliseconds"] / 1000 for d in deals)
    return n, won, lost, n - won - lost, pct(cpu, 0.5), pct(cpu, 0.95)


def cells(f):
    n, won, lost, unknown, median, p95 = f
    share = 100 * unknown / n if n else 0.0
    return f"{won} | {lost} | {unknown} ({share:.1f}%) | {median:.2f} | {p95:.2f}"


def row(out, spec):
    game, rng = spec.split("=") if "=" in spec else (spec, "1..1000")
    first, last = rng.split("..")
    tag = f"{game}.{first}-{last}"
    one = read(out / f"{tag}.1s.jsonl")
    again = read(out / f"{tag}.10s.jsonl")
    ten = [again.get(k, d) for k, d in sorted(one.items())]
    return (
        f"| `{game}` | {first}..{last} | {cells(figures(list(one.values())))} "
        f"| {cells(figures(ten))} |"
    )


def speed(path):
    """The sentence that says how fast the machine ran, from the survey of
    a fixed number of positions that frontier.sh makes first."""
    if not path:
        return ""
    d = json.loads(pathlib.Path(path).read_text().splitlines()[0])
    cpu = d["cpu_milliseconds"] / 1000
    return (
        f" The machine's speed in this run: `patience solve {d['game']} "
        f"--deal {d['deal']} --nodes {d['nodes']}` took {cpu:.1f} s of CPU "
        f"({d['nodes'] / cpu / 1e6:.2f} M positions a CPU second)."
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", choices=["time", "nodes"], default="time")
    ap.add_argument("--rate", type=int, required=True)
    ap.add_argument("--doc", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--block", default="frontier")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument(
        "--speed",
        help="a JSON line of the survey that measures the machine's speed",
    )
    ap.add_argument("specs", nargs="+")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    if a.budget == "time":
        budgets = "1 s and 10 s of wall clock a deal"
    else:
        budgets = f"{a.rate:,} and {10 * a.rate:,} positions a deal"
    lines = [
        f"`{a.command.strip()}`: {budgets}, one thread a deal"
        + (f", {a.jobs} deals at once" if a.jobs > 1 else "")
        + "; a deal unknown at the first "
        "budget is solved again with the second; CPU in seconds a deal "
        "(thread CPU time)." + speed(a.speed),
        "",
        "| game | deals | 1 s: won | lost | unknown | median CPU | p95 CPU "
        "| 10 s: won | lost | unknown | median CPU | p95 CPU |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [row(out, s) for s in a.specs]
    table = "\n".join(lines)
    if a.doc == "-":
        print(table)
        return
    doc = pathlib.Path(a.doc)
    text = doc.read_text()
    mark = re.escape(a.block)
    new, n = re.subn(
        rf"<!-- {mark} -->.*?<!-- /{mark} -->",
        lambda _: f"<!-- {a.block} -->\n{table}\n<!-- /{a.block} -->",
        text,
        flags=re.S,
    )
    if n != 1:
        raise SystemExit(f"{doc}: no <!-- {a.block} --> block")
    doc.write_text(new)
    print(table)


if __name__ == "__main__":
    main()
