//! `GET /v0/badge.json`: shields.io's endpoint badge
//! (`https://img.shields.io/endpoint?url=…`), for those who route their
//! badges through shields. Exactly its schema's members: shields refuses
//! any other.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use serde_json::json;
use x402_verdict_core::image::{evaluation, Look, IMAGE_LABEL};

use super::{asked_and_answered, service_keys, tag_of, tagged};
use crate::Service;

/// `max-age` of a `Cache-Control` value, in seconds (0 when it has none).
fn max_age(cache: &HeaderValue) -> u64 {
    cache
        .to_str()
        .unwrap_or_default()
        .split(',')
        .find_map(|d| d.trim().strip_prefix("max-age="))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// `GET /v0/badge.json?chain=…&payTo=…&resourceUrl=…`.
pub(super) async fn answer(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let answered = match asked_and_answered(&service, query).await {
        Ok((_, answered, _)) => answered,
        Err(problem) => return crate::bad_request_response(&problem),
    };
    let shown = evaluation(answered.carried.as_ref(), &service_keys(&service));
    let look = Look::of(shown.state);
    let body = json!({
        "schemaVersion": 1,
        "label": IMAGE_LABEL,
        "message": format!("{} {}", look.mark, shown.badge_label()),
        "color": look.light.border,
        "cacheSeconds": max_age(&answered.cache),
    });
    let mut out = HeaderMap::new();
    out.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    out.insert(CACHE_CONTROL, answered.cache.clone());
    let body = Bytes::from(body.to_string());
    let tag = tag_of(&body);
    tagged(&headers, answered.shown_status(), out, body, &tag)
}
