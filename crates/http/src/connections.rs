//! The HTTP/1.1 connections of `serve` and `mcp --listen`, served by hyper
//! under limits that no slow, idle, numerous or lying client gets past:
//!
//! - **the request head** must arrive within the header timeout of the
//!   connection's opening or of its previous response (hyper's
//!   `header_read_timeout`), so a slowloris client and an idle keep-alive
//!   connection are both closed when it runs out;
//! - **the whole request**, head and body, must arrive within the request
//!   timeout, counted from the same moment, and after its first
//!   [`RATE_GRACE`] a body must average at least [`MIN_BODY_RATE`]; a body
//!   declared longer than the app's cap fails at once, before a byte of it
//!   is read, and one that grows past the cap fails when it does
//!   ([`BodyError`]: the app answers 413 or 408);
//! - **a refused request's connection lingers**: after a 413 or 408 the
//!   server stops writing and reads (and drops) what the client still sends,
//!   for at most [`LINGER`] and [`LINGER_BYTES`], before it closes, so that
//!   the client reads the refusal instead of a reset (as nginx's
//!   `lingering_close`); at most [`MAX_LINGERING`] linger at once, and any
//!   more close at once;
//! - **the connection cap**: at the cap, a new connection is admitted by
//!   closing the connection that has waited longest on an incomplete
//!   request (its head or body still arriving, or idle between requests),
//!   so that clients that send their requests are served whatever the slow
//!   ones do; only when every connection is being answered does a new one
//!   wait in the listen backlog.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::Router;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tokio::time::{Instant, Sleep};
use tower_service::Service as _;

/// How long a refused request's connection goes on reading before it closes.
pub const LINGER: Duration = Duration::from_secs(2);

/// The most a refused request's connection reads before it closes.
pub const LINGER_BYTES: usize = 8 << 20;

/// The most connections lingering at once.
pub const MAX_LINGERING: usize = 64;

/// How long a request body may take before [`MIN_BODY_RATE`] applies.
pub const RATE_GRACE: Duration = Duration::from_secs(2);

/// The least average rate of a request body past [`RATE_GRACE`], in bytes
/// a second: far below any real link, far above a byte-a-second attack.
pub const MIN_BODY_RATE: u64 = 1024;

/// The limits an operator sets (`serve`'s and `mcp --listen`'s connection
/// options): how long a client may take, and how many may be connected.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// How long a connection may take to send a request head, from its
    /// opening or from its previous response.
    pub header_timeout: Duration,
    /// How long it may take to send the whole request, from the same moment.
    pub request_timeout: Duration,
    /// How many connections are open at once.
    pub max_connections: usize,
}

impl ConnectionLimits {
    /// These limits, for an app whose request bodies are at most
    /// `max_body_bytes` long.
    pub fn with_max_body(self, max_body_bytes: u64) -> Limits {
        Limits {
            header_timeout: self.header_timeout,
            request_timeout: self.request_timeout,
            max_connections: self.max_connections,
            max_body_bytes,
        }
    }
}

/// The limits every connection is served under.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// How long a connection may take to send a request head, from its
    /// opening or from its previous response.
    pub header_timeout: Duration,
    /// How long it may take to send the whole request, from the same moment.
    pub request_timeout: Duration,
    /// How many connections are open at once.
    pub max_connections: usize,
    /// The longest request body the app reads.
    pub max_body_bytes: u64,
}

/// Why a request body could not be read whole: the app answers it with
/// [`BodyError::status`] and the connection closes.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    /// The body is, or is declared to be, longer than the app reads.
    #[error("Payload Too Large: the request body exceeds {limit} bytes")]
    TooLarge {
        /// The cap.
        limit: u64,
    },
    /// The request did not arrive whole within the request timeout.
    #[error("Request Timeout: the request did not arrive whole within {} ms", .0.as_millis())]
    Deadline(Duration),
    /// The body arrived more slowly than [`MIN_BODY_RATE`].
    #[error("Request Timeout: the request body arrived at under {MIN_BODY_RATE} bytes a second")]
    TooSlow,
    /// The connection failed while the body arrived.
    #[error("Bad Request: the request body was cut off")]
    Connection(#[source] hyper::Error),
}

impl BodyError {
    /// The HTTP status that answers it.
    pub fn status(&self) -> axum::http::StatusCode {
        use axum::http::StatusCode;
        match self {
            BodyError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            BodyError::Deadline(_) | BodyError::TooSlow => StatusCode::REQUEST_TIMEOUT,
            BodyError::Connection(_) => StatusCode::BAD_REQUEST,
        }
    }

    /// The error behind a failed read of a body served here, if it is one.
    pub fn of<'a>(error: &'a (dyn std::error::Error + 'static)) -> Option<&'a BodyError> {
        let mut cause = Some(error);
        while let Some(e) = cause {
            if let Some(found) = e.downcast_ref() {
                return Some(found);
            }
            cause = e.source();
        }
        None
    }
}

/// Serves `app` on `listener` under `limits` until `shutdown` resolves, then
/// lets the requests in progress finish (for at most one request timeout).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let table = Arc::new(Table::default());
    let lingering = Arc::new(Semaphore::new(MAX_LINGERING));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = accept(&listener) => accepted,
            () = &mut shutdown => break,
        };
        let Some(stream) = stream else { continue };
        let admitted = tokio::select! {
            admitted = table.admit(limits.max_connections) => admitted,
            () = &mut shutdown => break,
        };
        let (place, evicted) = admitted;
        let service = RequestService {
            app: app.clone(),
            connection: place.0.clone(),
            limits,
        };
        let io = Lingering {
            stream: Some(stream),
            refused: place.0.refused.clone(),
            permits: lingering.clone(),
        };
        let served = graceful.watch(http.serve_connection(TokioIo::new(io), service));
        tokio::spawn(async move {
            // A client that goes away or times out ends its connection; nothing to report.
            tokio::select! {
                _ = served => {}
                () = evicted.notified() => {}
            }
            drop(place);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(limits.request_timeout, graceful.shutdown()).await;
}

/// The next connection; `None` when accepting failed (the failure is
/// logged, and accepting goes on after a pause, as when the process is out
/// of file descriptors).
async fn accept(listener: &TcpListener) -> Option<TcpStream> {
    match listener.accept().await {
        Ok((stream, _)) => Some(stream),
        Err(e) => {
            tracing::warn!("could not accept a connection: {e}");
            tokio::time::sleep(Duration::from_millis(50)).await;
            None
        }
    }
}

/// Where a connection's current request stands.
#[derive(Clone, Copy, Debug)]
enum Stage {
    /// Its request (head or body) is incomplete, or none has come since the
    /// previous response: evictable, oldest first by this instant.
    Waiting(Instant),
    /// Its request arrived whole and is being answered.
    Answering,
}

/// The open connections and where each stands, for the cap.
#[derive(Default)]
struct Table {
    entries: Mutex<Entries>,
    /// Told whenever a connection closes or starts waiting again.
    changed: Notify,
}

#[derive(Default)]
struct Entries {
    next: u64,
    open: HashMap<u64, Entry>,
}

struct Entry {
    stage: Stage,
    evict: Arc<Notify>,
}

impl Table {
    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a new connection, evicting the connection that has
    /// waited longest when `cap` are open; waits while all are answering.
    /// Also gives the notice that evicts the new one.
    async fn admit(self: &Arc<Self>, cap: usize) -> (Place, Arc<Notify>) {
        loop {
            let changed = self.changed.notified();
            if let Some(admitted) = self.try_admit(cap) {
                return admitted;
            }
            changed.await;
        }
    }

    fn try_admit(self: &Arc<Self>, cap: usize) -> Option<(Place, Arc<Notify>)> {
        let mut entries = self.lock();
        if entries.open.len() >= cap {
            let oldest = entries
                .open
                .iter()
                .filter_map(|(id, e)| match e.stage {
                    Stage::Waiting(since) => Some((since, *id)),
                    Stage::Answering => None,
                })
                .min()?
                .1;
            if let Some(evicted) = entries.open.remove(&oldest) {
                evicted.evict.notify_one();
            }
        }
        let id = entries.next;
        entries.next += 1;
        let evict = Arc::new(Notify::new());
        entries.open.insert(
            id,
            Entry {
                stage: Stage::Waiting(Instant::now()),
                evict: evict.clone(),
            },
        );
        let connection = Connection {
            id,
            table: self.clone(),
            refused: Arc::default(),
        };
        Some((Place(connection), evict))
    }
}

/// One admitted connection, as its requests and bodies name it.
#[derive(Clone)]
struct Connection {
    id: u64,
    table: Arc<Table>,
    /// A request body failed (too large, too late, too slow): linger at close.
    refused: Arc<AtomicBool>,
}

impl Connection {
    /// When the current request began to arrive (for the request timeout).
    fn waiting_since(&self) -> Instant {
        match self.table.lock().open.get(&self.id).map(|e| e.stage) {
            Some(Stage::Waiting(since)) => since,
            _ => Instant::now(),
        }
    }

    /// The request that began to arrive at `since` arrived whole: not
    /// evictable while it is answered (unless its answer went out already).
    fn answering(&self, since: Instant) {
        if let Some(entry) = self.table.lock().open.get_mut(&self.id) {
            if matches!(entry.stage, Stage::Waiting(s) if s == since) {
                entry.stage = Stage::Answering;
            }
        }
    }

    /// The response went out: waiting for the next request, from now.
    fn waiting(&self) {
        if let Some(entry) = self.table.lock().open.get_mut(&self.id) {
            entry.stage = Stage::Waiting(Instant::now());
        }
        self.table.changed.notify_waiters();
    }
}

/// The [`Table`]'s entry of one open connection, held by its task: given
/// up when the connection closes.
struct Place(Connection);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.table.lock().open.remove(&self.0.id);
        self.0.table.changed.notify_waiters();
    }
}

/// The app behind one connection: each request's body bounded, and its
/// stage kept in the [`Table`].
#[derive(Clone)]
struct RequestService {
    app: Router,
    connection: Connection,
    limits: Limits,
}

impl hyper::service::Service<hyper::Request<Incoming>> for RequestService {
    type Response = axum::response::Response;
    type Error = std::convert::Infallible;
    type Future =
        Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send + 'static>>;

    fn call(&self, request: hyper::Request<Incoming>) -> Self::Future {
        let since = self.connection.waiting_since();
        let request = request.map(|incoming| {
            let body = BoundedBody::new(incoming, self.limits, since, self.connection.clone());
            Body::new(body)
        });
        let mut app = self.app.clone();
        let connection = self.connection.clone();
        Box::pin(async move {
            let response = app.call(request).await?;
            Ok(response.map(|body| {
                Body::new(ResponseBody {
                    inner: body,
                    connection: Some(connection),
                })
            }))
        })
    }
}

/// A request body read under the cap, the request timeout and the minimum
/// rate; its end (or its being dropped unread) marks the request answering.
struct BoundedBody {
    inner: Incoming,
    connection: Option<Connection>,
    /// When the request began to arrive.
    since: Instant,
    limit: u64,
    started: Instant,
    deadline: Instant,
    request_timeout: Duration,
    /// Wakes the reader at the deadline or at the next rate check.
    timer: Pin<Box<Sleep>>,
    received: u64,
    failed: bool,
}

impl BoundedBody {
    fn new(inner: Incoming, limits: Limits, since: Instant, connection: Connection) -> Self {
        let started = Instant::now();
        let deadline = since + limits.request_timeout;
        let mut body = BoundedBody {
            inner,
            connection: Some(connection),
            since,
            limit: limits.max_body_bytes,
            started,
            deadline,
            request_timeout: limits.request_timeout,
            timer: Box::pin(tokio::time::sleep_until(deadline.min(started + RATE_GRACE))),
            received: 0,
            failed: false,
        };
        if http_body::Body::is_end_stream(&body.inner) {
            body.arrived();
        }
        body
    }

    /// The body arrived whole (or will never be read).
    fn arrived(&mut self) {
        if let Some(connection) = self.connection.take() {
            connection.answering(self.since);
        }
    }

    fn fail(&mut self, error: BodyError) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        self.failed = true;
        if let Some(connection) = self.connection.take() {
            connection.refused.store(true, Ordering::Relaxed);
        }
        Poll::Ready(Some(Err(error)))
    }

    /// The deadline or the rate, checked when the timer fires.
    fn check_time(&mut self, cx: &mut Context<'_>) -> Result<(), BodyError> {
        while self.timer.as_mut().poll(cx).is_ready() {
            let now = Instant::now();
            if now >= self.deadline {
                return Err(BodyError::Deadline(self.request_timeout));
            }
            let elapsed = now.duration_since(self.started);
            if elapsed >= RATE_GRACE
                && u128::from(self.received) * 1000
                    < u128::from(MIN_BODY_RATE) * elapsed.as_millis()
            {
                return Err(BodyError::TooSlow);
            }
            let next = (now + Duration::from_secs(1)).min(self.deadline);
            self.timer.as_mut().reset(next);
        }
        Ok(())
    }
}

impl http_body::Body for BoundedBody {
    type Data = Bytes;
    type Error = BodyError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BodyError>>> {
        let this = self.get_mut();
        if this.failed {
            return Poll::Ready(None);
        }
        if http_body::Body::size_hint(&this.inner).lower() > this.limit {
            return this.fail(BodyError::TooLarge { limit: this.limit });
        }
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                    if this.received > this.limit {
                        return this.fail(BodyError::TooLarge { limit: this.limit });
                    }
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(Some(Err(e))) => this.fail(BodyError::Connection(e)),
            Poll::Ready(None) => {
                this.arrived();
                Poll::Ready(None)
            }
            Poll::Pending => match this.check_time(cx) {
                Ok(()) => Poll::Pending,
                Err(e) => this.fail(e),
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.failed || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for BoundedBody {
    fn drop(&mut self) {
        // Dropped unread: hyper closes the connection after the response.
        self.arrived();
    }
}

/// A response body; once it is sent (or dropped), the connection waits for
/// its next request.
struct ResponseBody {
    inner: Body,
    connection: Option<Connection>,
}

impl http_body::Body for ResponseBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for ResponseBody {
    fn drop(&mut self) {
        if let Some(connection) = self.connection.take() {
            connection.waiting();
        }
    }
}

/// A connection's socket; when it closes after a refused request, it
/// lingers (see the module's notes) in a task of its own.
struct Lingering {
    stream: Option<TcpStream>,
    refused: Arc<AtomicBool>,
    permits: Arc<Semaphore>,
}

impl Lingering {
    fn stream(&mut self) -> &mut TcpStream {
        // Taken only when dropped.
        self.stream
            .as_mut()
            .expect("the socket is there until dropped")
    }
}

impl AsyncRead for Lingering {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(self.get_mut().stream()).poll_read(cx, buf)
    }
}

impl AsyncWrite for Lingering {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(self.get_mut().stream()).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(self.get_mut().stream()).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(self.get_mut().stream()).poll_shutdown(cx)
    }
}

impl Drop for Lingering {
    fn drop(&mut self) {
        let Some(mut stream) = self.stream.take() else {
            return;
        };
        if !self.refused.load(Ordering::Relaxed) {
            return;
        }
        let Ok(permit) = self.permits.clone().try_acquire_owned() else {
            return;
        };
        tokio::spawn(async move {
            let _ = stream.shutdown().await;
            let mut buffer = vec![0; 16 << 10];
            let mut read = 0;
            let _ = tokio::time::timeout(LINGER, async {
                while read < LINGER_BYTES {
                    match stream.read(&mut buffer).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => read += n,
                    }
                }
            })
            .await;
            drop(permit);
        });
    }
}
