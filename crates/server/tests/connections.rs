//! Connections are bounded in time: a silent connection, a head that never
//! ends, a body that trickles, and shutdown with requests still open. Each
//! test runs a real server on 127.0.0.1 with short timeouts and raw sockets.

mod common;

use std::time::{Duration, Instant};

use common::{temp_db, Server};
use patience_server::connections::Settings;
use patience_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Longest a test waits for anything the server should do.
const PATIENCE: Duration = Duration::from_secs(8);

fn config(db: &std::path::Path, settings: Settings) -> Config {
    Config {
        connections: settings,
        ..Config::local(db.to_path_buf())
    }
}

fn short() -> Settings {
    Settings {
        header_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(2),
        shutdown_deadline: Duration::from_secs(5),
        max_connections: None,
    }
}

async fn connect(url: &str) -> TcpStream {
    TcpStream::connect(url.trim_start_matches("http://"))
        .await
        .expect("connects")
}

/// Reads until the server closes the connection; what it sent, and when it closed.
async fn until_closed(stream: &mut TcpStream) -> (String, Instant) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(PATIENCE, stream.read(&mut buf)).await {
            Err(_) => panic!(
                "the server kept the connection open; it sent {:?}",
                String::from_utf8_lossy(&got)
            ),
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), Instant::now())
}

/// The head of a new-game request whose body, `body_len` bytes, follows.
fn new_game_head(body_len: usize) -> String {
    format!(
        "POST /api/games/fan/new HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Content-Type: application/json\r\nContent-Length: {body_len}\r\n\r\n"
    )
}

#[tokio::test]
async fn a_half_sent_head_is_cut_at_the_header_timeout_and_silence_at_the_idle_timeout() {
    let db = temp_db();
    let server = Server::start_with(config(&db.path, short())).await;

    let mut silent = connect(&server.url).await;
    let silent_from = Instant::now();
    let mut partial = connect(&server.url).await;
    // Half a request line, after a pause: the header timeout runs from the first byte.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let partial_from = Instant::now();
    partial.write_all(b"GET /api/gam").await.unwrap();

    let (sent, closed) = until_closed(&mut partial).await;
    assert!(sent.is_empty(), "{sent:?}");
    assert_held(
        closed - partial_from,
        900..1900,
        "a partial head (header timeout 1 s)",
    );

    let (sent, closed) = until_closed(&mut silent).await;
    assert!(sent.is_empty(), "{sent:?}");
    assert_held(
        closed - silent_from,
        1900..3500,
        "a silent connection (idle timeout 2 s)",
    );

    // After an answer the connection waits for the next request the idle timeout too.
    let mut kept = connect(&server.url).await;
    kept.write_all(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let answered_from = Instant::now();
    let (sent, closed) = until_closed(&mut kept).await;
    assert!(sent.starts_with("HTTP/1.1 200"), "{sent:.80}");
    assert_held(
        closed - answered_from,
        1900..3500,
        "a kept-alive connection after its answer (idle timeout 2 s)",
    );
    server.stop().await;
}

/// `held` is within `millis`.
fn assert_held(held: Duration, millis: std::ops::Range<u64>, what: &str) {
    assert!(
        millis.contains(&(held.as_millis() as u64)),
        "{what} was held {held:?}, not {millis:?} ms"
    );
}

#[tokio::test]
async fn a_trickling_body_is_answered_408_and_the_connection_closed() {
    let db = temp_db();
    let server = Server::start_with(config(&db.path, short())).await;
    let body = br#"{"deal": 12345}                                   "#;
    let mut slow = connect(&server.url).await;
    slow.write_all(new_game_head(body.len()).as_bytes())
        .await
        .unwrap();
    let from = Instant::now();
    let trickle = async {
        for byte in body {
            if slow_write(&mut slow, *byte).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    // The whole body would take 5 s; the body timeout is 1 s.
    let _ = tokio::time::timeout(Duration::from_millis(1500), trickle).await;
    let (sent, closed) = until_closed(&mut slow).await;
    assert!(sent.starts_with("HTTP/1.1 408"), "{sent:.200}");
    assert!(sent.contains(r#""code":"request_timeout""#), "{sent}");
    assert!(
        sent.to_ascii_lowercase().contains("connection: close"),
        "{sent}"
    );
    assert!(
        closed - from < Duration::from_secs(3),
        "{:?}",
        closed - from
    );

    // The same request sent at once is served: the limit is on time, not the request.
    let mut quick = connect(&server.url).await;
    let mut request = new_game_head(body.len()).into_bytes();
    request.extend_from_slice(body);
    quick.write_all(&request).await.unwrap();
    let mut head = [0u8; 12];
    quick.read_exact(&mut head).await.unwrap();
    assert_eq!(&head, b"HTTP/1.1 201");
    server.stop().await;
}

async fn slow_write(stream: &mut TcpStream, byte: u8) -> std::io::Result<()> {
    stream.write_all(&[byte]).await?;
    stream.flush().await
}

#[tokio::test]
async fn shutdown_finishes_requests_in_flight_and_does_not_wait_for_partial_ones() {
    let db = temp_db();
    let server = Server::start_with(config(&db.path, short())).await;
    let body = br#"{"deal": 7}"#;
    // A request whose head has arrived, its body still to come: in flight.
    let mut in_flight = connect(&server.url).await;
    in_flight
        .write_all(new_game_head(body.len()).as_bytes())
        .await
        .unwrap();
    // A head cut short, and a connection that never spoke.
    let mut partial = connect(&server.url).await;
    partial.write_all(b"POST /api/games/fan/ne").await.unwrap();
    let mut silent = connect(&server.url).await;
    tokio::time::sleep(Duration::from_millis(200)).await;

    let from = Instant::now();
    let stopped = tokio::spawn(server.stop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    in_flight.write_all(body).await.unwrap();
    let (sent, _) = until_closed(&mut in_flight).await;
    assert!(sent.starts_with("HTTP/1.1 201"), "{sent:.200}");
    for idle in [&mut partial, &mut silent] {
        let (sent, _) = until_closed(idle).await;
        assert!(sent.is_empty(), "{sent:?}");
    }
    tokio::time::timeout(PATIENCE, stopped)
        .await
        .expect("the server stops")
        .unwrap();
    let took = from.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "shutdown took {took:?} with only partial requests left (deadline 5 s)"
    );
}

#[tokio::test]
async fn shutdown_closes_what_is_still_open_at_the_deadline() {
    let db = temp_db();
    let settings = Settings {
        body_timeout: Duration::from_secs(60),
        shutdown_deadline: Duration::from_secs(1),
        ..short()
    };
    let server = Server::start_with(config(&db.path, settings)).await;
    // A body that never comes, under a body timeout longer than the deadline.
    let mut stuck = connect(&server.url).await;
    stuck
        .write_all(new_game_head(100).as_bytes())
        .await
        .unwrap();
    stuck.write_all(b"{").await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let from = Instant::now();
    tokio::time::timeout(PATIENCE, server.stop())
        .await
        .expect("the server stops at its deadline");
    let took = from.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_millis(2500),
        "shutdown took {took:?} with a request in flight (deadline 1 s)"
    );
    let (sent, _) = until_closed(&mut stuck).await;
    assert!(!sent.starts_with("HTTP/1.1 2"), "{sent:.200}");
}
