#![allow(dead_code)]

//! Runs the built `patience` binary, as the integration tests of every
//! command do.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// `patience ARGS`, with `stdin` written to its input (closed at once when
/// there is none, so a command waiting on stdin sees its end).
pub fn patience(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("patience runs");
    {
        let mut input = child.stdin.take().expect("stdin");
        if let Some(text) = stdin {
            input.write_all(text.as_bytes()).expect("write stdin");
        }
    }
    child.wait_with_output().expect("patience ends")
}

/// `patience serve` on a free port of 127.0.0.1 over `db` (a SQLite path or
/// a PostgreSQL URL), with `extra` arguments: the child and its address, or
/// the refusal it printed.
pub fn serve(db: &str, extra: &[&str]) -> Result<(std::process::Child, String), String> {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_patience"))
        .args(["serve", "--port", "0", "--db", db])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    match line.strip_prefix("listening on http://") {
        Some(addr) => Ok((child, addr.trim().to_string())),
        None => {
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            child.wait().unwrap();
            Err(err)
        }
    }
}

/// A fresh database on the PostgreSQL server the tests are given
/// (`PATIENCE_TEST_POSTGRES`, a URL whose user may create databases), or
/// `None`, said loudly, outside `scripts/test`; under
/// `PATIENCE_REQUIRE_POSTGRES` (which `scripts/test` sets) a missing server
/// fails the test instead.
pub fn fresh_postgres_database(test: &str) -> Option<String> {
    let Some(admin) = std::env::var("PATIENCE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
    else {
        assert!(
            std::env::var_os("PATIENCE_REQUIRE_POSTGRES").is_none(),
            "{test}: PATIENCE_TEST_POSTGRES is not set"
        );
        eprintln!("SKIPPED {test}: it needs PostgreSQL; run it through ./scripts/test");
        return None;
    };
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let name = format!("t_{}_{nanos}", std::process::id());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let (client, conn) = tokio_postgres::connect(&admin, tokio_postgres::NoTls)
            .await
            .expect("the test PostgreSQL server answers");
        tokio::spawn(conn);
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
    });
    Some(format!("{}/{name}", admin.rsplit_once('/').unwrap().0))
}
