//! `x402-verdict serve`: the reference verification service (axum on tokio).

// A dependency nothing uses fails the build (the test build also sees the
// dev-dependencies).
#![cfg_attr(not(test), deny(unused_crate_dependencies))]

// Named as a dependency only to turn on its `rand_core` feature (key
// generation); the code reaches it through the core's re-export.
use ed25519_dalek as _;

mod badge;
pub mod clock;
mod cosigning;
pub mod discovery;
mod jsonfile;
pub mod keyfile;
pub mod keys;
pub mod log_files;
pub mod metrics;
pub mod paid;
pub mod recorder;
pub mod registry;
pub mod secret_file;
pub mod static_files;
pub mod tlog;
pub mod trust;
pub mod witness;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{
    ACCESS_CONTROL_REQUEST_METHOD, ALLOW, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tower_http::cors::{Any, CorsLayer};
use tower_http::set_header::SetResponseHeaderLayer;
use x402_verdict_core::transparency;
use x402_verdict_core::{
    check_signature, sign_verdict_carrying, Endpoint, KeyId, SignatureStatus, TrustedKeys,
    KEYS_PATH, METRICS_PATH, VERDICT_PATH,
};

use clock::Clock;
use discovery::DemoDiscovery;
use keyfile::KeyFile;
use metrics::Publisher;
use paid::DemoPaid;
use recorder::Recorder;
use registry::{Found, Registry};
use static_files::StaticFiles;
use x402_verdict_http::connections::{self, ConnectionLimits};
use x402_verdict_http::host;

/// The Content-Security-Policy of the static pages: what a strict seller
/// site would send, so that the demo proves the badge works under it.
pub const STATIC_CSP: &str =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

const VERDICT_CACHE: &str = "public, max-age=60, stale-while-revalidate=300";
const NOT_FOUND_CACHE: &str = "public, max-age=10";
const KEYS_CACHE: &str = "public, max-age=300";
/// No route of the service reads a request body: one sent is never read,
/// and its connection closes after the answer.
const SERVE_MAX_BODY_BYTES: u64 = 0;

/// What `serve` serves, and how: the files it reads and the address and
/// limits it listens under.
#[derive(Debug)]
pub struct ServeConfig {
    /// The address to listen on (port 0 picks a free port: see
    /// [`Bound::local_addr`]).
    pub listen: SocketAddr,
    /// The registry file (JSON: attestations and published verdicts).
    pub registry: PathBuf,
    /// The key file (written by [`keys::keygen`]).
    pub keys: PathBuf,
    /// A folder whose files are also served at `/`, with a strict
    /// Content-Security-Policy.
    pub www: Option<PathBuf>,
    /// An x402 v2 challenge file: `GET /demo/paid` is also answered 402
    /// with it (a demo paid resource).
    pub demo_paid: Option<PathBuf>,
    /// A file of discovery items (a JSON list): `GET /discovery/resources`
    /// also answers them, paged as a facilitator does (a demo listing).
    pub demo_discovery: Option<PathBuf>,
    /// The limits on the service's HTTP connections.
    pub connections: ConnectionLimits,
    /// The operator file (JSON: operator, relatedParty, disclosure); without
    /// it, `/v0/metrics` is not published.
    pub operator: Option<PathBuf>,
    /// The folder of the verdict counts database (created on first start);
    /// without it, no count is kept.
    pub data: Option<PathBuf>,
    /// Where the service reads the time.
    pub clock: Clock,
    /// The transparency log the service keeps (`--log`); without it,
    /// verdicts carry no proof.
    pub log: Option<recorder::LogConfig>,
}

/// Why `serve` stops: a file or folder it cannot use, an address it cannot
/// bind, or counts it cannot save at shutdown.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The registry file.
    #[error(transparent)]
    Registry(#[from] registry::RegistryError),
    /// The key file.
    #[error(transparent)]
    Keys(#[from] keyfile::KeyFileError),
    /// The `--www` folder.
    #[error(transparent)]
    Www(#[from] static_files::StaticFilesError),
    /// The `--demo-paid` challenge.
    #[error(transparent)]
    DemoPaid(#[from] paid::DemoPaidError),
    /// The `--demo-discovery` listing.
    #[error(transparent)]
    DemoDiscovery(#[from] discovery::DemoDiscoveryError),
    /// The transparency log.
    #[error(transparent)]
    Log(#[from] recorder::RecorderError),
    /// The operator file or the counts database.
    #[error(transparent)]
    Metrics(#[from] metrics::PublisherError),
    /// `--listen`'s address cannot be bound.
    #[error("--listen {addr}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The bound socket has no address.
    #[error(transparent)]
    LocalAddr(std::io::Error),
    /// The last counts could not be saved.
    #[error(transparent)]
    Flush(#[from] metrics::counter::FlushError),
    /// The task saving the last counts failed.
    #[error(transparent)]
    FlushTask(#[from] tokio::task::JoinError),
}

/// What is wrong with a verdict request's query, for its 400 answer.
#[derive(Debug, thiserror::Error)]
enum QueryError {
    /// The query string does not decode to UTF-8.
    #[error("the query string is not valid UTF-8")]
    NotUtf8,
    /// A parameter is absent.
    #[error("missing query parameter {0}")]
    Missing(&'static str),
    /// A parameter is given twice or more.
    #[error("query parameter {0} is given more than once")]
    Repeated(&'static str),
    /// The three values do not name an endpoint.
    #[error(transparent)]
    Endpoint(#[from] x402_verdict_core::EndpointError),
}

struct Service {
    registry: Registry,
    keys: KeyFile,
    /// The keys document, serialized once at start.
    keys_document: Bytes,
    /// What every signed verdict carries: the key's certificate, the roots.
    carried: x402_verdict_core::json::Object,
    /// The metrics' operator block and verdict counter.
    metrics: Publisher,
    clock: Clock,
    /// The image badges drawn in the current second.
    drawn: badge::Drawn,
    /// The transparency log, when the service keeps one.
    recorder: Option<Arc<Recorder>>,
}

/// The service bound to its address, its files read: [`Bound::serve`]
/// serves it.
pub struct Bound {
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    app: Router,
    limits: connections::Limits,
    counter: Option<Arc<metrics::counter::VerdictCounter>>,
    log_key: Option<String>,
}

/// Checks the files and binds the address: nothing is served yet.
///
/// # Errors
///
/// One line naming the file, entry and field, or the address, that is wrong.
pub async fn bind(config: ServeConfig) -> Result<Bound, ServeError> {
    let limits = config.connections.with_max_body(SERVE_MAX_BODY_BYTES);
    let registry = Registry::load(&config.registry)?;
    let keys = KeyFile::load(&config.keys)?;
    let www = config.www.as_deref().map(StaticFiles::new).transpose()?;
    let paid = config
        .demo_paid
        .as_deref()
        .map(DemoPaid::load)
        .transpose()?;
    let listing = config
        .demo_discovery
        .as_deref()
        .map(DemoDiscovery::load)
        .transpose()?;
    let clock = config.clock;
    let metrics = Publisher::open(
        config.operator.as_deref(),
        config.data.as_deref(),
        clock.now(),
    )?;
    let recorder = match config.log {
        None => None,
        Some(log) => {
            let (recorder, sequencer) = recorder::open(log)?;
            sequencer.spawn();
            Some(Arc::new(recorder))
        }
    };
    let log_key = recorder.as_ref().map(|r| r.verifier_key.clone());
    warn_about_published(&registry, &keys);
    trust::warn_about_certificate(&config.keys, &keys, clock.now());
    let attestations = registry.attestation_count();
    let counter = metrics.counter().cloned();
    let mut app = router(registry, keys, metrics, clock, www, recorder);
    if let Some(paid) = paid {
        app = app.merge(paid.router());
    }
    if let Some(listing) = listing {
        app = app.merge(listing.router());
    }
    // No answer, API or file, is read as another type than it says.
    let app = app
        .layer(axum::middleware::from_fn(options))
        .layer(axum::middleware::from_fn(host::check))
        .layer(SetResponseHeaderLayer::overriding(
            X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ));
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServeError::Listen {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(ServeError::LocalAddr)?;
    tracing::info!(%addr, attestations, "serving");
    Ok(Bound {
        listener,
        addr,
        app,
        limits,
        counter,
        log_key,
    })
}

impl Bound {
    /// The address it listens on (the port picked, when port 0 was asked).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The log's verifier key, when the service keeps a log: what
    /// consumers, witnesses and monitors configure.
    pub fn log_key(&self) -> Option<&str> {
        self.log_key.as_deref()
    }

    /// Serves until `shutdown` resolves (such as
    /// [`x402_verdict_http::shutdown_signal`]: Ctrl-C or SIGTERM), then saves the last counts.
    ///
    /// # Errors
    ///
    /// The last counts could not be saved.
    pub async fn serve(
        self,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> Result<(), ServeError> {
        let flusher = self.counter.clone().map(|c| c.spawn_flusher());
        connections::serve(self.listener, self.app, self.limits, shutdown).await;
        if let Some(flusher) = flusher {
            flusher.abort();
        }
        // The last increments: nothing counted is lost on Ctrl-C or SIGTERM.
        if let Some(counter) = self.counter {
            tokio::task::spawn_blocking(move || counter.flush()).await??;
        }
        Ok(())
    }
}

/// Middleware: an `OPTIONS` request that is no CORS preflight (a load
/// balancer's health check, `OPTIONS / HTTP/1.0`) is answered 204 with the
/// methods the service answers; a preflight goes on to the CORS layers.
async fn options(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let preflight = request
        .headers()
        .contains_key(ACCESS_CONTROL_REQUEST_METHOD);
    if request.method() != Method::OPTIONS || preflight {
        return next.run(request).await;
    }
    (StatusCode::NO_CONTENT, [(ALLOW, "GET, HEAD, OPTIONS")]).into_response()
}

fn warn_about_published(registry: &Registry, keys: &KeyFile) {
    let mut all = vec![keys.current.verifying_key()];
    all.extend(keys.previous.iter().copied());
    let trusted = TrustedKeys::from_keys(all);
    for (i, p) in registry.published().iter().enumerate() {
        let status = check_signature(&p.parsed, &trusted);
        if status != SignatureStatus::Valid {
            tracing::warn!("published[{i}]: signature is {} under this service's keys; serving it as published", status.as_str());
        }
    }
}

/// The service's routes.
fn router(
    registry: Registry,
    keys: KeyFile,
    metrics: Publisher,
    clock: Clock,
    www: Option<StaticFiles>,
    recorder: Option<Arc<Recorder>>,
) -> Router {
    let keys_document = Bytes::from(keys.keys_document().to_string());
    let roots = trust::routes(&keys);
    let service = Arc::new(Service {
        registry,
        carried: trust::carried(&keys),
        keys,
        keys_document,
        metrics,
        clock,
        drawn: badge::Drawn::default(),
        recorder: recorder.clone(),
    });
    // Every answer may be read from any origin: the API's, and the static
    // files', so that a page elsewhere can load the package from here as
    // from a CDN.
    let cors = CorsLayer::new()
        .allow_origin(Any)
        .allow_methods([Method::GET]);
    let mut api = Router::new()
        .route(VERDICT_PATH, get(verdict))
        .route(KEYS_PATH, get(verification_keys))
        .route(METRICS_PATH, get(published_metrics))
        .merge(badge::routes())
        .with_state(service)
        .merge(roots);
    if let Some(recorder) = recorder {
        api = api.merge(log_files::routes(recorder));
    }
    let api = api.layer(cors.clone());
    let routes = match www {
        None => api,
        Some(files) => api.merge(
            Router::new()
                .fallback(static_files::serve)
                .with_state(files)
                .layer(cors)
                .layer(SetResponseHeaderLayer::overriding(
                    CONTENT_SECURITY_POLICY,
                    HeaderValue::from_static(STATIC_CSP),
                )),
        ),
    };
    // Timing-Allow-Origin lets a page see how its requests went (their
    // resource timing, the protocol included): the badge lifts its request
    // budget for a service that answers over HTTP/2 or HTTP/3, from the
    // package's first file on when the page loads the package from here.
    routes.layer(SetResponseHeaderLayer::overriding(
        HeaderName::from_static("timing-allow-origin"),
        HeaderValue::from_static("*"),
    ))
}

fn json_response(status: StatusCode, cache: &'static str, body: Value) -> Response {
    (status, [(CACHE_CONTROL, cache)], Json(body)).into_response()
}

/// A 200 with a JSON body serialized ahead (a signed document, the keys).
fn serialized_response(cache: &'static str, body: Bytes) -> Response {
    (
        StatusCode::OK,
        [(CACHE_CONTROL, cache), (CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

/// A 400 whose JSON body's `error` names what is wrong with the request.
fn bad_request_response(problem: &dyn std::error::Error) -> Response {
    json_response(
        StatusCode::BAD_REQUEST,
        "no-store",
        json!({ "error": problem.to_string() }),
    )
}

async fn verdict(State(service): State<Arc<Service>>, RawQuery(query): RawQuery) -> Response {
    let query = query.unwrap_or_default();
    let Some(pairs) = query_pairs(&query) else {
        return bad_request_response(&QueryError::NotUtf8);
    };
    let asked = match endpoint_of(&pairs) {
        Ok(endpoint) => endpoint,
        Err(problem) => return bad_request_response(&problem),
    };
    let now = service.clock.now();
    match service.registry.find(&asked) {
        None => {
            service.metrics.count_answer(now);
            json_response(
                StatusCode::NOT_FOUND,
                NOT_FOUND_CACHE,
                json!({ "error": "no attestation for this endpoint" }),
            )
        }
        Some(Found::Published(p)) => {
            // One that carries a proof already is served as it is.
            let proof = match p.parsed.log_proof {
                None => service.log_proof(&query, &p.parsed.raw).await,
                Some(_) => None,
            };
            let document = match proof {
                Some(proof) => carrying(&String::from_utf8_lossy(&p.document), &proof).into(),
                None => p.document.clone(),
            };
            service.metrics.count_answer(now);
            serialized_response(VERDICT_CACHE, document)
        }
        Some(Found::Attested(a)) => {
            let key_id = KeyId::of(&service.keys.current.verifying_key());
            let verdict = a.verdict(&asked, now, key_id);
            let proof = service.log_proof(&query, &verdict).await;
            match sign_verdict_carrying(verdict, &service.keys.current, &service.carried) {
                Ok(document) => {
                    let document = match proof {
                        Some(proof) => carrying(&document, &proof),
                        None => document,
                    };
                    service.metrics.count_answer(now);
                    serialized_response(VERDICT_CACHE, document.into())
                }
                Err(e) => {
                    tracing::error!(
                        "could not sign a verdict: {}",
                        x402_verdict_consumer::error_chain(&e)
                    );
                    json_response(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "no-store",
                        json!({ "error": "could not sign the verdict" }),
                    )
                }
            }
        }
    }
}

impl Service {
    /// The proof, as a JSON string, that the statement of `verdict`, the
    /// answer to `query`, is in the log: `None` without a log, or when it
    /// does not come in time.
    async fn log_proof(
        &self,
        query: &str,
        verdict: &x402_verdict_core::json::Object,
    ) -> Option<Arc<str>> {
        let recorder = self.recorder.as_ref()?;
        // The query and the members that change with time or a re-check
        // decide the statement (the registry is read once, at start; with
        // these in the key, a registry read anew would make new entries).
        let member = |name| {
            verdict
                .get(name)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
        };
        let request = [
            query,
            "\n",
            member("outcome"),
            "\n",
            member("verifiedAt"),
            "\n",
            member("assuranceLevel"),
        ]
        .concat();
        recorder
            .proof(request, || transparency::entry(verdict))
            .await
    }
}

/// `document` (a JSON object, as signed or published) with the member
/// `logProof` added last, holding `proof` (a JSON string): every other
/// byte as it was.
fn carrying(document: &str, proof: &str) -> String {
    let body = document.trim_end();
    let body = body.strip_suffix('}').unwrap_or(body);
    [
        body,
        ",\"",
        transparency::LOG_PROOF_MEMBER,
        "\":",
        proof,
        "}",
    ]
    .concat()
}

/// Decodes `application/x-www-form-urlencoded` pairs; `None` if a name or
/// value is not UTF-8 once decoded (a lenient decoder would replace the bytes,
/// and the service would answer about another endpoint).
fn query_pairs(query: &str) -> Option<Vec<(String, String)>> {
    let decode = |text: &str| {
        percent_encoding::percent_decode_str(&text.replace('+', " "))
            .decode_utf8()
            .ok()
            .map(String::from)
    };
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Some((decode(name)?, decode(value)?))
        })
        .collect()
}

/// The endpoint a query names: each parameter exactly once, valid per the protocol.
fn endpoint_of(pairs: &[(String, String)]) -> Result<Endpoint, QueryError> {
    let one = |name: &'static str| {
        let mut values = pairs
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str());
        match (values.next(), values.next()) {
            (None, _) => Err(QueryError::Missing(name)),
            (Some(_), Some(_)) => Err(QueryError::Repeated(name)),
            (Some(v), None) => Ok(v),
        }
    };
    Ok(Endpoint::new(
        one("chain")?,
        one("payTo")?,
        one("resourceUrl")?,
    )?)
}

async fn verification_keys(State(service): State<Arc<Service>>) -> Response {
    serialized_response(KEYS_CACHE, service.keys_document.clone())
}

async fn published_metrics(State(service): State<Arc<Service>>) -> Response {
    let now = service.clock.now();
    service.metrics.respond(&service.registry, now).await
}
