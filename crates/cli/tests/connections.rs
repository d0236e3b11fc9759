//! `patience serve` as a process: a flood of idle connections under a
//! 1024 open-file limit leaves the site serving, and SIGTERM with a partial
//! request still open ends the process within the shutdown deadline.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use patience_server::connections::SHUTDOWN_DEADLINE;
use serde_json::Value;

/// Longest any one exchange with the server may take.
const PATIENCE: Duration = Duration::from_secs(5);

/// `patience serve --port 0` over a fresh database, its soft and hard
/// open-file limits set to `open_files` first; and the address it listens on.
struct Served {
    child: Child,
    addr: String,
    _dir: tempfile::TempDir,
}

impl Served {
    fn start(open_files: u32) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("patience.db");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -n {open_files} && exec \"$0\" serve --port 0 --db \"$1\""
            ))
            .arg(env!("CARGO_BIN_EXE_patience"))
            .arg(&db)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("patience serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("the listening line");
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Served {
            child,
            addr,
            _dir: dir,
        }
    }

    /// The process's open-file limit as the kernel reports it.
    fn open_file_limit(&self) -> String {
        let limits = std::fs::read_to_string(format!("/proc/{}/limits", self.child.id())).unwrap();
        limits
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .unwrap()
            .split_whitespace()
            .skip(3)
            .take(2)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// One request on a new connection: the status, the headers and the body.
    fn request(&self, method: &str, path: &str, cookie: Option<&str>, body: &str) -> Answer {
        let mut s = TcpStream::connect(&self.addr).expect("connects");
        s.set_read_timeout(Some(PATIENCE)).unwrap();
        s.set_write_timeout(Some(PATIENCE)).unwrap();
        let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{cookie}\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("an answer in time");
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        Answer {
            status,
            head: head.to_string(),
            body: body.to_string(),
        }
    }

    fn terminate(&self) {
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
    }

    /// Waits up to `limit` for the process to end; how long it took.
    fn wait_exit(&mut self, limit: Duration) -> Option<Duration> {
        let from = Instant::now();
        while from.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "patience serve ended with {status}");
                return Some(from.elapsed());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Answer {
    status: u16,
    head: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {:.200}", self.body))
    }

    /// The `name=value` of the `Set-Cookie` header.
    fn cookie(&self) -> String {
        self.head
            .lines()
            .find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("set-cookie")
                    .then(|| value.trim().split(';').next().unwrap().to_string())
            })
            .expect("a player cookie")
    }
}

#[test]
fn eleven_hundred_idle_connections_under_1024_open_files_leave_the_site_serving() {
    let served = Served::start(1024);
    assert_eq!(served.open_file_limit(), "1024 1024");
    // This side holds the 1,100 connections too.
    assert!(patience_server::connections::raise_open_file_limit() > 1200);
    let idle: Vec<TcpStream> = (0..1100)
        .map(|_| TcpStream::connect(&served.addr).expect("the listen queue takes it"))
        .collect();
    // Let the server accept them all (closing the oldest past its cap).
    std::thread::sleep(Duration::from_secs(1));

    let from = Instant::now();
    let page = served.request("GET", "/", None, "");
    assert_eq!(page.status, 200, "{}", page.head);
    let created = served.request("POST", "/api/games/fan/new", None, r#"{"deal": 5}"#);
    assert_eq!(created.status, 201, "{}", created.body);
    let state = created.json();
    let (uid, mv, version) = (
        state["uid"].as_str().unwrap(),
        state["legal"][0]["move"].as_str().unwrap(),
        state["version"].as_u64().unwrap(),
    );
    let moved = served.request(
        "POST",
        &format!("/api/play/{uid}/move"),
        Some(&created.cookie()),
        &format!(r#"{{"move": "{mv}", "expect": {version}}}"#),
    );
    assert_eq!(moved.status, 200, "{}", moved.body);
    assert_eq!(moved.json()["moves"], 1);
    assert!(
        from.elapsed() < Duration::from_secs(3),
        "three requests took {:?} beside 1,100 idle connections",
        from.elapsed()
    );
    drop(idle);
}

#[test]
fn sigterm_with_a_partial_request_open_ends_the_process_within_the_deadline() {
    let mut served = Served::start(1024);
    let mut partial = TcpStream::connect(&served.addr).unwrap();
    partial
        .write_all(b"POST /api/games/fan/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        .unwrap();
    // The server has begun reading it before the signal comes.
    assert_eq!(served.request("GET", "/api/games", None, "").status, 200);

    served.terminate();
    let margin = Duration::from_secs(3);
    let took = served
        .wait_exit(SHUTDOWN_DEADLINE + margin)
        .expect("patience serve ends within its shutdown deadline");
    assert!(
        took < SHUTDOWN_DEADLINE + margin,
        "patience serve took {took:?} to stop"
    );
    partial.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut rest = Vec::new();
    let _ = partial.read_to_end(&mut rest);
    assert!(rest.is_empty(), "{:?}", String::from_utf8_lossy(&rest));
}
