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
