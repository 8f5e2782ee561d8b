//! The badge where no script runs: the image badge (`GET /v0/badge.svg`),
//! shields.io's endpoint badge (`GET /v0/badge.json`) and the page an image
//! badge links to (`GET /v0/endpoint`).
//!
//! Each answers from what the verdict route answers for the same query,
//! asked of the route itself: the image carries that document byte for
//! byte, whatever members it has, and each answer is cached as it is.

mod image;
mod page;
mod shields;

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha2::{Digest, Sha256};
use x402_verdict_core::image::{
    Carried, Style, ENDPOINT_PAGE_PATH, IMAGE_PATH, SHIELDS_PATH, STYLE_PARAMETER,
};
use x402_verdict_core::{encode_base64, Endpoint, Timestamp, TrustedKeys};

pub(crate) use image::Drawn;

use crate::{endpoint_of, query_pairs, QueryError, Service};

/// The badge routes.
pub(crate) fn routes() -> Router<Arc<Service>> {
    Router::new()
        .route(IMAGE_PATH, get(image::answer))
        .route(SHIELDS_PATH, get(shields::answer))
        .route(ENDPOINT_PAGE_PATH, get(page::answer))
}

/// What a badge's query asks: the endpoint and the style.
struct Asked {
    endpoint: Endpoint,
    style: Style,
}

/// What is wrong with a badge's query: the verdict's query errors, and the style.
#[derive(Debug, thiserror::Error)]
enum BadgeQueryError {
    /// What the verdict route also refuses.
    #[error(transparent)]
    Query(#[from] QueryError),
    /// `style` names no style.
    #[error("query parameter style must be flat, flat-square or for-the-badge")]
    Style,
    /// `style` is given twice or more.
    #[error("query parameter style is given more than once")]
    RepeatedStyle,
}

/// Reads a badge's query as the verdict route does, and its `style` (flat
/// when absent).
fn asked(query: Option<&str>) -> Result<Asked, BadgeQueryError> {
    let pairs = query_pairs(query.unwrap_or_default()).ok_or(QueryError::NotUtf8)?;
    let endpoint = endpoint_of(&pairs)?;
    let mut styles = pairs.iter().filter(|(k, _)| k == STYLE_PARAMETER);
    let style = match (styles.next(), styles.next()) {
        (_, Some(_)) => return Err(BadgeQueryError::RepeatedStyle),
        (None, None) => Style::Flat,
        (Some((_, v)), None) => Style::parse(v).ok_or(BadgeQueryError::Style)?,
    };
    Ok(Asked { endpoint, style })
}

/// A badge's query read, what the verdict route answered for it, and the
/// time it answered at.
async fn asked_and_answered(
    service: &Arc<Service>,
    query: Option<String>,
) -> Result<(Asked, Answered, Timestamp), BadgeQueryError> {
    let asked = asked(query.as_deref())?;
    let now = service.clock.now();
    Ok((asked, ask_verdict(service, query, now).await, now))
}

/// What the verdict route answered for a query: its status, its
/// `Cache-Control`, and the document it served, if any.
struct Answered {
    status: StatusCode,
    cache: HeaderValue,
    carried: Option<Carried>,
}

impl Answered {
    /// The status of a badge's answer: the verdict route's, but for no
    /// verdict, whose badge ("unknown") is what was asked for.
    fn shown_status(&self) -> StatusCode {
        match self.status {
            StatusCode::NOT_FOUND => StatusCode::OK,
            status => status,
        }
    }
}

/// Asks the verdict route itself, as a client would, for `query`.
async fn ask_verdict(service: &Arc<Service>, query: Option<String>, now: Timestamp) -> Answered {
    let answer = crate::verdict(State(service.clone()), RawQuery(query)).await;
    let status = answer.status();
    let cache = answer
        .headers()
        .get(CACHE_CONTROL)
        .cloned()
        .unwrap_or(HeaderValue::from_static("no-store"));
    let body = axum::body::to_bytes(answer.into_body(), x402_verdict_core::MAX_BODY_BYTES)
        .await
        .unwrap_or_default();
    let carried = (status == StatusCode::OK)
        .then(|| String::from_utf8(body.to_vec()).ok())
        .flatten()
        .map(|document| Carried { document, at: now });
    Answered {
        status,
        cache,
        carried,
    }
}

/// The keys of this service, current and previous: those its image badges
/// are drawn under.
fn service_keys(service: &Service) -> TrustedKeys {
    let mut all = vec![service.keys.current.verifying_key()];
    all.extend(service.keys.previous.iter().copied());
    TrustedKeys::from_keys(all)
}

/// The entity tag of an answer's body: a strong tag, its SHA-256's start.
fn tag_of(body: &[u8]) -> String {
    format!("\"{}\"", encode_base64(&Sha256::digest(body)[..18]))
}

/// An answer with its body's entity tag `tag` ([`tag_of`]), or `304 Not
/// Modified` when the request already holds it (`If-None-Match`).
fn tagged(
    request: &HeaderMap,
    status: StatusCode,
    mut headers: HeaderMap,
    body: Bytes,
    tag: &str,
) -> Response {
    let held = request
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|v| v.trim() == "*" || v.trim().trim_start_matches("W/") == tag);
    if let Ok(tag) = HeaderValue::from_str(tag) {
        headers.insert(ETAG, tag);
    }
    if held && status == StatusCode::OK {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (status, headers, body).into_response()
}
