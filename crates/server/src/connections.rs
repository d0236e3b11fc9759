//! Connections: the accept loop in front of the router, and what bounds it.
//!
//! Every connection speaks HTTP/1.1 and is in one of three phases: *waiting*
//! for a request (just opened, or its previous answer sent), *receiving* a
//! request's body (its head is complete), or *busy* with a request the
//! router has. A waiting connection is closed when it stays silent past the
//! idle timeout, or when a request's head, once begun, is not complete within
//! the header timeout; a head over [`protocol::HEAD_LIMIT`] is answered 431.
//! A request's whole body (at most [`MAX_BODY`]) is read before the router
//! sees it, so that every answer, an early refusal included, leaves the
//! connection ready for the next request; it must arrive within the body
//! timeout (a late body is answered 408 `request_timeout`, a body over the
//! limit 413, and the connection closed). The handlers themselves are bounded
//! elsewhere (hints by their budget, the database by its writer).
//!
//! At most `cap` connections are open at once, sized from the open-file limit
//! (raised to the hard limit at start). When every place is taken, a new
//! connection closes the connection that has waited longest for a request, or
//! else the one that has been receiving its body longest, so idle,
//! half-sent and trickling connections cannot keep players out (a real body
//! arrives with its head); if every connection is busy in the router, the new
//! one waits in the listen queue until one ends.
//!
//! Shutdown stops accepting at once, closes every waiting connection (a
//! partial request included), lets busy ones finish their answer, and after
//! the shutdown deadline closes whatever is still open.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue, Request, Response};
use axum::response::IntoResponse;
use axum::Router;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tower::ServiceExt as _;

use crate::body::MAX_BODY;
use crate::error::{ApiError, Code};
use crate::protocol;

/// A request's head must be complete this long after its first byte: a
/// browser sends it in one packet, a slow-loris client never finishes it.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// A request's body must be complete this long after its head: bodies are
/// at most 64 KiB, so this allows 6.4 KB/s, far below any real link.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// A connection may wait this long for its next request: longer than a
/// player's think between moves, short enough that idle sockets do not pile up.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);
/// Requests in flight get this long to finish once shutdown begins: a hint
/// takes at most a second, a move milliseconds.
pub const SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);
/// Open files kept back from connections: the SQLite files of the writer and
/// the readers (three each), the lock file, a backup copy, the runtime's own.
pub const RESERVED_FILES: u64 = 128;
/// Connections at most, whatever the open-file limit: each holds read and
/// write buffers, and this many players at once is far past one server's load.
pub const MAX_CONNECTIONS: usize = 8192;
/// Connections at least, even under a tiny open-file limit.
pub const MIN_CONNECTIONS: usize = 16;
/// A waiting connection is closed to make room, or at shutdown, only once it
/// has waited this long, so an answer just handed over is not cut while
/// still being written out; a connection receiving a body is closed to make
/// room only once it has been at it this long.
const EVICT_AFTER: Duration = Duration::from_millis(500);
/// How often a new connection looks again for one to close while all are busy.
const ROOM_RETRY: Duration = Duration::from_millis(100);
/// Connections the kernel queues before they are accepted: a burst of new
/// players waits here (the system's own default, 128, refuses a burst and
/// makes clients retry a second later).
pub const LISTEN_BACKLOG: u32 = 4096;
/// Pause after a failed accept (out of file descriptors, most often) so the
/// loop does not spin while connections close.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The timeouts and the connection cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub idle_timeout: Duration,
    pub shutdown_deadline: Duration,
    /// Connections open at once; `None` sizes it from the open-file limit.
    pub max_connections: Option<usize>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            idle_timeout: IDLE_TIMEOUT,
            shutdown_deadline: SHUTDOWN_DEADLINE,
            max_connections: None,
        }
    }
}

impl Settings {
    /// The connection cap: the configured one, or one sized from the
    /// open-file limit after raising it as far as the system allows.
    pub fn cap(&self) -> usize {
        self.max_connections
            .unwrap_or_else(|| cap_for_open_files(raise_open_file_limit()))
            .max(1)
    }
}

/// Raises the open-file soft limit to the hard limit where the system allows,
/// and returns the soft limit in force.
pub fn raise_open_file_limit() -> u64 {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    }
}

/// Connections that fit under `open_files` with room for the store.
pub fn cap_for_open_files(open_files: u64) -> usize {
    let room = open_files.saturating_sub(RESERVED_FILES);
    usize::try_from(room)
        .unwrap_or(MAX_CONNECTIONS)
        .clamp(MIN_CONNECTIONS, MAX_CONNECTIONS)
}

/// A listener on `addr` with the listen queue of `LISTEN_BACKLOG` (the
/// kernel caps it at its `somaxconn`).
pub fn listen(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As the standard library's listeners do: a restart may bind the port
    // while the last run's connections linger in TIME_WAIT.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Accepts connections on `listener` and serves `router` on each until
/// `shutdown` completes; then shuts down as the module describes.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    settings: Settings,
    shutdown: impl Future<Output = ()>,
) -> io::Result<()> {
    let cap = settings.cap();
    tracing::info!(cap, "connections");
    let places = Arc::new(Semaphore::new(cap));
    let open = Arc::new(Open::default());
    let (stop, stopping) = watch::channel(false);
    let mut tasks = JoinSet::new();
    let mut shutdown = pin!(shutdown);
    let mut http = hyper::server::conn::http1::Builder::new();
    // The header timeout is kept here (it runs from a request's first byte,
    // not from the end of the previous answer as hyper's does).
    http.header_read_timeout(None);
    http.max_buf_size(protocol::HEAD_LIMIT);
    let settings = Arc::new(settings);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = tasks.join_next(), if !tasks.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    open.make_room();
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let place = match places.clone().try_acquire_owned() {
            Ok(place) => place,
            Err(_) => tokio::select! {
                () = &mut shutdown => break,
                place = open.room(&places) => place,
            },
        };
        let conn = open.add();
        let task = Connection {
            conn,
            open: open.clone(),
            settings: settings.clone(),
            peer,
            _place: place,
        };
        tasks.spawn(task.run(http.clone(), stream, router.clone(), stopping.clone()));
    }
    drop(listener);
    let _ = stop.send(true);
    let drained = tokio::time::timeout(settings.shutdown_deadline, async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            open = tasks.len(),
            "shutdown deadline passed: closing the connections still open"
        );
        tasks.shutdown().await;
    }
    Ok(())
}

/// Every open connection, so that a new one can close the longest waiting.
#[derive(Default)]
struct Open {
    next: AtomicU64,
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
}

impl Open {
    fn add(&self) -> Arc<Conn> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn::new(id));
        self.lock().insert(id, conn.clone());
        conn
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        self.conns.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks the connection that has waited longest for a request, or else
    /// the one that has been receiving its body longest (either at least
    /// `EVICT_AFTER`), to close; false when there is none.
    fn make_room(&self) -> bool {
        let now = Instant::now();
        let conns = self.lock();
        let longest = |receiving: bool| {
            conns
                .values()
                .filter(|c| !c.evicted.load(Ordering::Relaxed))
                .filter_map(|c| {
                    let since = match c.phase() {
                        Phase::Waiting { since, .. } if !receiving => since,
                        Phase::Receiving { since } if receiving => since,
                        _ => return None,
                    };
                    Some((since, c.clone()))
                })
                .filter(|(since, _)| now.duration_since(*since) >= EVICT_AFTER)
                .min_by_key(|(since, _)| *since)
        };
        let longest = longest(false).or_else(|| longest(true));
        drop(conns);
        match longest {
            Some((_, conn)) => {
                conn.evicted.store(true, Ordering::Relaxed);
                conn.wake.notify_one();
                true
            }
            None => false,
        }
    }

    /// A place for a new connection once every place is taken.
    async fn room(&self, places: &Arc<Semaphore>) -> OwnedSemaphorePermit {
        loop {
            self.make_room();
            if let Ok(Ok(place)) =
                tokio::time::timeout(ROOM_RETRY, places.clone().acquire_owned()).await
            {
                return place;
            }
        }
    }
}

/// What one connection is doing, shared by its task, its socket and its requests.
struct Conn {
    id: u64,
    phase: Mutex<Phase>,
    /// Set while waiting for the first byte of a request (read on every read).
    listening: AtomicBool,
    /// Asked to close to make room.
    evicted: AtomicBool,
    /// Asked to close to make room: the task looks at once. (Phase changes
    /// wake no one: the task looks again at least every header timeout.)
    wake: Notify,
}

#[derive(Clone, Copy, Debug)]
enum Phase {
    /// Waiting for a request since `since`; its first byte came at `begun`.
    Waiting {
        since: Instant,
        begun: Option<Instant>,
    },
    /// A request's head has come; its body is being read since `since`.
    Receiving { since: Instant },
    /// The router has the request.
    Busy,
}

impl Conn {
    fn new(id: u64) -> Conn {
        Conn {
            id,
            phase: Mutex::new(Phase::Waiting {
                since: Instant::now(),
                begun: None,
            }),
            listening: AtomicBool::new(true),
            evicted: AtomicBool::new(false),
            wake: Notify::new(),
        }
    }

    fn phase(&self) -> Phase {
        *self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set(&self, phase: Phase) {
        *self.phase.lock().unwrap_or_else(PoisonError::into_inner) = phase;
    }

    /// A request's head has begun and no answer to it has been handed over:
    /// what the socket writes now is the parser's own refusal.
    fn mid_head(&self) -> bool {
        matches!(self.phase(), Phase::Waiting { begun: Some(_), .. })
    }

    /// Bytes arrived: a waiting connection's request has begun.
    fn heard(&self) {
        if self.listening.swap(false, Ordering::Relaxed) {
            let mut phase = self.phase.lock().unwrap_or_else(PoisonError::into_inner);
            if let Phase::Waiting {
                begun: begun @ None,
                ..
            } = &mut *phase
            {
                *begun = Some(Instant::now());
            }
        }
    }

    fn receiving(&self) {
        self.listening.store(false, Ordering::Relaxed);
        self.set(Phase::Receiving {
            since: Instant::now(),
        });
    }

    fn busy(&self) {
        self.set(Phase::Busy);
    }

    fn waiting(&self) {
        self.set(Phase::Waiting {
            since: Instant::now(),
            begun: None,
        });
        self.listening.store(true, Ordering::Relaxed);
    }

    /// When a waiting connection is closed (soon once the server is
    /// stopping); `None` while busy.
    fn closes_at(&self, settings: &Settings, stopping: bool) -> Option<Instant> {
        match self.phase() {
            Phase::Waiting { since, .. } if stopping => Some(since + EVICT_AFTER),
            Phase::Waiting { since, begun: None } => Some(since + settings.idle_timeout),
            Phase::Waiting {
                begun: Some(begun), ..
            } => Some(begun + settings.header_timeout),
            Phase::Receiving { .. } | Phase::Busy => None,
        }
    }

    /// When the task next looks at the phase: when it closes, and at least
    /// every header timeout, which is soon enough to close a request's head
    /// on time once it has begun.
    fn looks_at(&self, settings: &Settings, stopping: bool) -> Instant {
        let soon = Instant::now() + settings.header_timeout;
        self.closes_at(settings, stopping)
            .map_or(soon, |at| at.min(soon))
    }
}

/// One accepted connection's task.
struct Connection {
    conn: Arc<Conn>,
    open: Arc<Open>,
    settings: Arc<Settings>,
    peer: SocketAddr,
    _place: OwnedSemaphorePermit,
}

impl Connection {
    async fn run(
        self,
        http: hyper::server::conn::http1::Builder,
        stream: TcpStream,
        router: Router,
        mut stopping: watch::Receiver<bool>,
    ) {
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Heard {
            stream,
            conn: self.conn.clone(),
            refusal: None,
        });
        let (conn, settings, peer) = (self.conn.clone(), self.settings.clone(), self.peer);
        let service = hyper::service::service_fn(move |req| {
            answer(req, router.clone(), conn.clone(), settings.clone(), peer)
        });
        let mut served = pin!(http.serve_connection(io, service));
        let mut stopped = false;
        loop {
            tokio::select! {
                done = served.as_mut() => {
                    if let Err(e) = done {
                        tracing::debug!(error = %e, peer = %self.peer, "connection");
                    }
                    break;
                }
                () = tokio::time::sleep_until(self.conn.looks_at(&self.settings, stopped)) => {
                    // The phase may have changed while the sleep ran.
                    let at = self.conn.closes_at(&self.settings, stopped);
                    if at.is_some_and(|at| at <= Instant::now()) {
                        break;
                    }
                }
                () = self.conn.wake.notified() => {
                    if self.conn.evicted.load(Ordering::Relaxed) {
                        break;
                    }
                }
                _ = stopping.changed(), if !stopped => {
                    stopped = true;
                    served.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.open.remove(self.conn.id);
    }
}

/// One request: checked as RFC 9112 asks, its whole body read within the
/// body timeout, then through the router. A refusal before the router closes
/// the connection (what follows on it cannot be framed, or is not wanted).
async fn answer(
    req: Request<Incoming>,
    router: Router,
    conn: Arc<Conn>,
    settings: Arc<Settings>,
    peer: SocketAddr,
) -> Result<Response<Answer>, std::convert::Infallible> {
    conn.receiving();
    let idle = BackToWaiting(conn.clone());
    let (parts, body) = req.into_parts();
    let deadline = Instant::now() + settings.body_timeout;
    let read = match protocol::check(&parts) {
        Ok(()) => read_body(body, deadline).await,
        Err(e) => Err(e),
    };
    let res = match read {
        Ok(bytes) => {
            conn.busy();
            let mut req = Request::from_parts(parts, Body::from(bytes));
            req.extensions_mut().insert(ConnectInfo(peer));
            let Ok(res) = router.oneshot(req).await;
            res
        }
        Err(refusal) => {
            let mut res = refusal.into_response();
            crate::security::add_headers(res.headers_mut());
            res.headers_mut()
                .insert(header::CONNECTION, HeaderValue::from_static("close"));
            res
        }
    };
    Ok(res.map(|body| Answer { body, _idle: idle }))
}

/// A request's whole body, at most [`MAX_BODY`], by `deadline`.
async fn read_body(mut body: Incoming, deadline: Instant) -> Result<Bytes, ApiError> {
    use http_body::Body as _;
    let too_large = || {
        ApiError::new(
            Code::BodyTooLarge,
            format!("the request body is over {} KiB", MAX_BODY / 1024),
        )
    };
    if body.is_end_stream() {
        return Ok(Bytes::new());
    }
    if body.size_hint().lower() > MAX_BODY as u64 {
        return Err(too_large());
    }
    let collect = async {
        let mut chunks: Vec<Bytes> = Vec::new();
        let mut len = 0;
        while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await
        {
            let frame = frame.map_err(|e| {
                ApiError::new(
                    Code::MalformedBody,
                    format!("the request body could not be read: {e}"),
                )
            })?;
            if let Ok(data) = frame.into_data() {
                len += data.len();
                if len > MAX_BODY {
                    return Err(too_large());
                }
                chunks.push(data);
            }
        }
        Ok(match chunks.len() {
            0 => Bytes::new(),
            1 => chunks.pop().unwrap_or_default(),
            _ => Bytes::from(chunks.concat()),
        })
    };
    tokio::time::timeout_at(deadline, collect)
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::new(
                Code::RequestTimeout,
                "the request body did not arrive in time",
            ))
        })
}

/// Marks the connection waiting again when the answer has been handed over.
struct BackToWaiting(Arc<Conn>);

impl Drop for BackToWaiting {
    fn drop(&mut self) {
        self.0.waiting();
    }
}

/// An answer's body; the connection is waiting again once hyper drops it.
struct Answer {
    body: Body,
    _idle: BackToWaiting,
}

impl http_body::Body for Answer {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The socket, telling its connection when a request's first byte arrives,
/// and putting the API's JSON in place of the parser's empty refusals.
struct Heard {
    stream: TcpStream,
    conn: Arc<Conn>,
    /// The JSON refusal still to be written, once the parser refused a head;
    /// what the parser writes after it is dropped (it closes the connection).
    refusal: Option<Bytes>,
}

impl Heard {
    /// Takes over a write that is the parser's own refusal; true when it did.
    fn refuses(&mut self, first: &[u8]) -> bool {
        if self.refusal.is_some() {
            return true;
        }
        if !self.conn.mid_head() {
            return false;
        }
        match protocol::parser_refusal(first) {
            Some(json) => {
                self.refusal = Some(json);
                true
            }
            None => false,
        }
    }

    /// Writes what is left of the JSON refusal.
    fn poll_refusal(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some(left) = self.refusal.as_mut().filter(|b| !b.is_empty()) {
            let n = ready!(Pin::new(&mut self.stream).poll_write(cx, left))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            let _ = left.split_to(n);
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncRead for Heard {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = ready!(Pin::new(&mut self.stream).poll_read(cx, buf));
        if buf.filled().len() > before && self.conn.listening.load(Ordering::Relaxed) {
            self.conn.heard();
        }
        Poll::Ready(read)
    }
}

impl AsyncWrite for Heard {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.refuses(buf) {
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let first = bufs
            .iter()
            .find(|b| !b.is_empty())
            .map_or(&[][..], |b| &b[..]);
        if self.refuses(first) {
            return Poll::Ready(Ok(bufs.iter().map(|b| b.len()).sum()));
        }
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_refusal(cx))?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_refusal(cx))?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_room_for_the_store_within_bounds() {
        assert_eq!(cap_for_open_files(1024), 1024 - RESERVED_FILES as usize);
        assert_eq!(cap_for_open_files(100), MIN_CONNECTIONS);
        assert_eq!(cap_for_open_files(u64::MAX), MAX_CONNECTIONS);
    }
}
