//! One debug line a request (method, path, status, time), and a warning for
//! every server error; `RUST_LOG=patience_server=debug` shows them all.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

pub async fn log(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let res = next.run(req).await;
    let status = res.status().as_u16();
    let micros = started.elapsed().as_micros() as u64;
    if res.status().is_server_error() {
        tracing::warn!(%method, path, status, micros, "request failed");
    } else {
        tracing::debug!(%method, path, status, micros, "request");
    }
    res
}
