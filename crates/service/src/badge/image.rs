//! `GET /v0/badge.svg`: the image badge, which carries the verdict the
//! verdict route answers for the same query ([`x402_verdict_core::image`]).
//!
//! A query that names no endpoint is answered 400 with an image too: the
//! "unknown" badge whose hover text says what is wrong, where a README
//! would otherwise show a broken image and no reason.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use sha2::{Digest, Sha256};
use x402_verdict_core::image::{picture, picture_without_verdict, Style};
use x402_verdict_core::{encode_base64, Evaluation, Lookup, Response as Answer};

use super::{ask_verdict, asked, service_keys};
use crate::Service;

/// An image badge's media type.
const SVG: &str = "image/svg+xml";

/// The image's Content-Security-Policy, when it is opened as a page of its
/// own: nothing loads and nothing runs; its one stylesheet (the colours of
/// the light and dark schemes) is allowed by its hash.
fn policy(svg: &str) -> HeaderValue {
    let sheet = svg
        .split_once("<style>")
        .and_then(|(_, rest)| rest.split_once("</style>"))
        .map_or("", |(sheet, _)| sheet);
    let hash = encode_base64(&Sha256::digest(sheet.as_bytes()));
    let policy = format!("default-src 'none'; style-src 'sha256-{hash}'; sandbox");
    HeaderValue::from_str(&policy)
        .unwrap_or(HeaderValue::from_static("default-src 'none'; sandbox"))
}

/// The image's answer: its status, caching and body.
fn image(request: &HeaderMap, status: StatusCode, cache: HeaderValue, svg: String) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(SVG));
    headers.insert(CACHE_CONTROL, cache);
    headers.insert(CONTENT_SECURITY_POLICY, policy(&svg));
    super::tagged(request, status, headers, Bytes::from(svg))
}

/// `GET /v0/badge.svg?chain=…&payTo=…&resourceUrl=…[&style=…]`.
pub(super) async fn answer(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let asked = match asked(query.as_deref()) {
        Ok(asked) => asked,
        Err(problem) => {
            let style = Style::Flat;
            let svg =
                picture_without_verdict(&Evaluation::invalid_input(problem.to_string()), style);
            return image(
                &headers,
                StatusCode::BAD_REQUEST,
                HeaderValue::from_static("no-store"),
                svg,
            );
        }
    };
    let now = service.clock.now();
    let answered = ask_verdict(&service, query, now).await;
    let keys = service_keys(&service);
    let svg = match (&answered.carried, answered.status) {
        (Some(carried), _) => picture(Some(carried), &keys, asked.style),
        (None, StatusCode::NOT_FOUND) => picture(None, &keys, asked.style),
        // The verdict route failed: the badge says so as any badge would.
        (None, status) => {
            let lookup = Lookup {
                endpoint: asked.endpoint,
                keys,
                strict: true,
            };
            let failed = lookup.evaluate(
                Answer::Http {
                    status: status.as_u16(),
                    body: b"",
                },
                now,
            );
            picture_without_verdict(&failed, asked.style)
        }
    };
    image(
        &headers,
        answered.shown_status(),
        answered.cache.clone(),
        svg,
    )
}
