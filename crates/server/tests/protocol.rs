//! Hostile traffic at the HTTP layer: oversized heads, bodies that trickle
//! while new visitors knock, answers given before a body was read, and
//! requests RFC 9112 says to refuse. A real server on 127.0.0.1 and raw
//! sockets; every flood is bounded in connections, bytes and time.

mod common;

use std::time::{Duration, Instant};

use common::{temp_db, Server};
use patience_server::connections::Settings;
use patience_server::Config;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longest a test waits for one answer.
const PATIENCE: Duration = Duration::from_secs(8);

/// The tests that measure the process's memory or time run one at a time.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn addr(server: &Server) -> String {
    server.url.trim_start_matches("http://").to_string()
}

/// Reads one answer (head and a `Content-Length` body) from `s`: its status,
/// its head in lower case, and its body. `None` if the connection ended first.
async fn read_answer(s: &mut TcpStream) -> Option<(u16, String, String)> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        match tokio::time::timeout(PATIENCE, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return None,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => panic!("no answer within {PATIENCE:?}"),
        }
    };
    let head = String::from_utf8_lossy(&got[..head_end]).to_ascii_lowercase();
    let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
    let len: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |v| v.trim().parse().unwrap());
    while got.len() < head_end + len {
        match tokio::time::timeout(PATIENCE, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return None,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => panic!("the body did not come within {PATIENCE:?}"),
        }
    }
    let body = String::from_utf8_lossy(&got[head_end..head_end + len]).into_owned();
    Some((status, head, body))
}

/// Whether the server closes `s` (reads nothing more) within `PATIENCE`.
async fn closes(s: &mut TcpStream) -> Result<(), String> {
    let mut buf = [0u8; 1024];
    match tokio::time::timeout(PATIENCE, s.read(&mut buf)).await {
        Ok(Ok(0)) | Ok(Err(_)) => Ok(()),
        Ok(Ok(n)) => Err(String::from_utf8_lossy(&buf[..n]).into_owned()),
        Err(_) => Err("the connection stayed open".into()),
    }
}

fn code(body: &str) -> String {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["code"].as_str().map(str::to_string))
        .unwrap_or_else(|| format!("no JSON code in {body:?}"))
}

/// This process's resident memory, in MB.
fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Heads past what any browser sends get 431 in the API's JSON and the
/// connection closed, so a flood of unfinished heads holds a bounded amount
/// of memory: 400 connections each sending 200 KB of a head that never ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_heads_get_431_and_hold_little_memory() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let addr = addr(&server);
    let before = rss_mb();
    let pad = "a".repeat(1000);
    let mut floods = Vec::new();
    for _ in 0..400 {
        let (addr, pad) = (addr.clone(), pad.clone());
        floods.push(tokio::spawn(async move {
            let mut s = TcpStream::connect(&addr).await.unwrap();
            let mut sent = 0;
            let _ = s
                .write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                .await;
            for i in 0..200 {
                let line = format!("x-pad-{i}: {pad}\r\n");
                if s.write_all(line.as_bytes()).await.is_err() {
                    break;
                }
                sent += line.len();
            }
            (s, sent)
        }));
    }
    let mut held = Vec::new();
    for f in floods {
        held.push(f.await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let peak = rss_mb();
    let mut refused = 0;
    for (s, _) in &mut held {
        if let Ok(Some((status, head, body))) =
            tokio::time::timeout(Duration::from_secs(2), read_answer(s)).await
        {
            assert_eq!(status, 431, "{head}{body}");
            assert_eq!(code(&body), "bad_request", "{body}");
            assert!(head.contains("connection: close"), "{head}");
            refused += 1;
        }
    }
    drop(held);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = rss_mb();
    println!(
        "unfinished 200 KB heads on 400 connections: {refused} answered 431; \
         memory {before:.0} MB before, {peak:.0} MB during, {after:.0} MB after"
    );
    assert_eq!(refused, 400, "every oversized head is refused");
    assert!(
        peak - before < 64.0,
        "the flood took {:.0} MB",
        peak - before
    );
    // Heads just under the limit, unfinished, are held until the header
    // timeout: what they hold is bounded by the limit, and given back after.
    let before = rss_mb();
    let pad = "a".repeat(1000);
    let mut held = Vec::new();
    for _ in 0..1000 {
        let mut s = TcpStream::connect(&addr).await.unwrap();
        s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            .await
            .unwrap();
        for i in 0..30 {
            s.write_all(format!("x-pad-{i}: {pad}\r\n").as_bytes())
                .await
                .unwrap();
        }
        held.push(s);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let peak = rss_mb();
    drop(held);
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = rss_mb();
    println!(
        "unfinished 30 KB heads on 1000 connections: memory {before:.0} MB before, \
         {peak:.0} MB during, {after:.0} MB after they closed"
    );
    assert!(
        peak - before < 96.0,
        "1000 heads under the limit took {:.0} MB",
        peak - before
    );
    // A head of an ordinary size is still served.
    let mut s = TcpStream::connect(&addr).await.unwrap();
    s.write_all(
        format!(
            "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\ncookie: {}\r\n\r\n",
            "c".repeat(6000)
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(read_answer(&mut s).await.unwrap().0, 200);
    server.stop().await;
}

/// A POST whose body trickles, one byte every half second, sent again
/// whenever the server closes it; how many were sent.
async fn slow_body(addr: String, until: Instant) -> u32 {
    let mut sent = 0;
    while Instant::now() < until {
        sent += 1;
        let Ok(mut s) = TcpStream::connect(&addr).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let head = "POST /api/games/fan/new HTTP/1.1\r\nHost: 127.0.0.1\r\n\
                    Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
        if s.write_all(head.as_bytes()).await.is_err() {
            continue;
        }
        while Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(500)).await;
            if s.write_all(b" ").await.is_err() {
                break;
            }
        }
    }
    sent
}

/// Connections whose bodies trickle (and come back when closed), twice as
/// many as there are places, take every place, each for the whole body
/// timeout unless something closes it: new visitors must still be answered,
/// quickly. Without eviction every place is held for the 10 s of the body
/// timeout, longer than the whole attack, so no visitor gets in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_bodies_do_not_lock_out_new_visitors() {
    const PLACES: usize = 16;
    const ATTACKERS: usize = 2 * PLACES;
    const VISITORS: u32 = 10;
    const VISIT_PATIENCE: Duration = Duration::from_secs(2);
    let _alone = ONE_AT_A_TIME.lock().await;
    let db = temp_db();
    let server = Server::start_with(Config {
        connections: Settings {
            max_connections: Some(PLACES),
            ..Settings::default()
        },
        ..common::config(&db.path)
    })
    .await;
    assert!(
        Settings::default().body_timeout > Duration::from_secs(6),
        "the attack must end before the body timeout frees a place"
    );
    let addr = addr(&server);
    let start = Instant::now();
    let until = start + Duration::from_secs(6);
    let attackers: Vec<_> = (0..ATTACKERS)
        .map(|_| tokio::spawn(slow_body(addr.clone(), until)))
        .collect();
    // Every place is taken before the first visitor knocks.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let visitors: Vec<_> = (0..VISITORS)
        .map(|i| {
            let addr = addr.clone();
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_millis(300) * i).await;
                let from = Instant::now();
                let visit = async {
                    let mut s = TcpStream::connect(&addr).await.ok()?;
                    s.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        .await
                        .ok()?;
                    read_answer(&mut s).await
                };
                match tokio::time::timeout(VISIT_PATIENCE, visit).await {
                    Ok(Some((200, _, _))) => Some(from.elapsed()),
                    _ => None,
                }
            })
        })
        .collect();
    let mut answered = Vec::new();
    for v in visitors {
        answered.extend(v.await.unwrap());
    }
    let mut bodies = 0;
    for a in attackers {
        bodies += a.await.unwrap();
    }
    answered.sort();
    let p50 = answered.get(answered.len() / 2).copied();
    println!(
        "new visitors during {ATTACKERS} slow bodies ({bodies} sent) at {PLACES} places: \
         {} of {VISITORS} answered within {VISIT_PATIENCE:?}, p50 {p50:?}, whole test {:?}",
        answered.len(),
        start.elapsed()
    );
    assert!(
        answered.len() >= 8,
        "{} of {VISITORS} new visitors were answered within {VISIT_PATIENCE:?}",
        answered.len()
    );
    server.stop().await;
}

/// An answer given before the request's body was read (415, 429) leaves the
/// kept-alive connection usable: the next request on it is answered.
#[tokio::test]
async fn an_early_answer_keeps_the_connection_usable() {
    let db = temp_db();
    let server = Server::start_with(Config {
        games_per_address_minute: 1,
        ..common::config(&db.path)
    })
    .await;
    let mut s = TcpStream::connect(addr(&server)).await.unwrap();
    let body = format!(r#"{{"deal": 3, "pad": "{}"}}"#, "x".repeat(20_000));
    let post = |ctype: &str| {
        format!(
            "POST /api/games/fan/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let get = "GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    let mut statuses = Vec::new();
    for request in [
        post("text/plain"),
        get.to_string(),
        post("application/json"),
        post("application/json"),
        get.to_string(),
    ] {
        // The head first, the body a moment later, as many clients send them.
        let (head, body) = request.split_at(request.find("\r\n\r\n").unwrap() + 4);
        s.write_all(head.as_bytes()).await.unwrap();
        tokio::time::sleep(Duration::from_millis(50)).await;
        if s.write_all(body.as_bytes()).await.is_err() {
            statuses.push(0);
            break;
        }
        let answer = read_answer(&mut s).await;
        statuses.push(answer.map_or(0, |a| a.0));
    }
    assert_eq!(statuses, [415, 200, 201, 429, 200]);
    server.stop().await;
}

/// Sends `request` on a new connection; the answer and whether the
/// connection was then closed.
async fn exchange(server: &Server, request: &[u8]) -> ((u16, String, String), bool) {
    let mut s = TcpStream::connect(addr(server)).await.unwrap();
    s.write_all(request).await.unwrap();
    let answer = read_answer(&mut s)
        .await
        .unwrap_or_else(|| panic!("no answer to {:?}", String::from_utf8_lossy(request)));
    let closed = closes(&mut s).await.is_ok();
    (answer, closed)
}

/// RFC 9112's refusals: a transfer coding other than `chunked` alone is 501
/// and a request hidden after it is never answered; an HTTP/1.1 request
/// without a Host header or with two is 400; whatever the parser refuses is
/// answered in the API's JSON too.
#[tokio::test]
async fn requests_rfc_9112_refuses_are_refused_in_json() {
    let db = temp_db();
    let server = Server::start(&db.path).await;
    let smuggled = b"POST /api/games/fan/new HTTP/1.1\r\nHost: 127.0.0.1\r\n\
        Content-Type: application/json\r\nTransfer-Encoding: identity, chunked\r\n\r\n\
        2\r\n{}\r\n0\r\n\r\nGET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    let ((status, head, body), closed) = exchange(&server, smuggled).await;
    assert_eq!(status, 501, "{head}{body}");
    assert_eq!(code(&body), "bad_request");
    assert!(closed, "the request hidden after it is not answered");

    for (what, request) in [
        ("no Host", &b"GET /api/games HTTP/1.1\r\n\r\n"[..]),
        (
            "two Hosts",
            b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n",
        ),
        (
            "a Host that is no host",
            b"GET /api/games HTTP/1.1\r\nHost: a b/c\r\n\r\n",
        ),
        (
            "a bad request line",
            b"GET /api/ga mes HTTP/1.1\r\nHost: x\r\n\r\n",
        ),
        (
            "a header without a colon",
            b"GET /api/games HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
        ),
    ] {
        let ((status, head, body), closed) = exchange(&server, request).await;
        assert_eq!(status, 400, "{what}: {head}{body}");
        assert!(
            head.contains("content-type: application/json"),
            "{what}: {head}"
        );
        assert_eq!(code(&body), "bad_request", "{what}");
        assert!(closed, "{what}: the connection is closed");
    }
    // HTTP/1.0 needs no Host; a chunked body alone is read as usual.
    let ((status, _, _), _) = exchange(&server, b"GET /api/games HTTP/1.0\r\n\r\n").await;
    assert_eq!(status, 200);
    let ((status, _, body), _) = exchange(
        &server,
        b"POST /api/games/fan/new HTTP/1.1\r\nHost: 127.0.0.1\r\n\
          Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n\
          b\r\n{\"deal\": 3}\r\n0\r\n\r\n",
    )
    .await;
    assert_eq!(status, 201, "{body}");
    server.stop().await;
}
