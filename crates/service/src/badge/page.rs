//! `GET /v0/endpoint`: the page an image badge links to, as a seal's
//! issuer's page: the badge checked again in the visitor's browser (the
//! package's script tag, with the verdict inlined and the service's keys),
//! what the verdict says in words, and the endpoint it is about in full,
//! with the line that asks the reader to compare it with the endpoint they
//! are asked to pay. Under the static pages' Content-Security-Policy; every
//! value escaped.

use std::fmt::Write as _;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, HOST};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use x402_verdict_core::image::{escape_markup as escape, evaluation};
use x402_verdict_core::json::Value;
use x402_verdict_core::{
    encode_base64, Endpoint, Evaluation, Lookup, Response as Answer, VerdictDocument,
};

use super::{asked_and_answered, service_keys, tag_of, tagged};
use crate::{Service, STATIC_CSP};

/// Where the page loads the badge's script tag from: the package, as
/// `--www` serves it (the demo's layout: `pkg/` in the folder).
const EMBED_SCRIPT: &str = "/pkg/embed.js";

/// This service's base URL as the visitor reached it: its `Host` (which
/// the service has checked), over HTTPS unless it is a loopback name.
fn base_url(headers: &HeaderMap) -> String {
    let host = headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("localhost");
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    let local = matches!(name, "localhost" | "[::1]") || name.starts_with("127.");
    format!("{}://{host}", if local { "http" } else { "https" })
}

/// The page's rows: a term and its value, each escaped when written.
fn rows(out: &mut String, rows: &[(&str, &str)]) {
    out.push_str("<dl>");
    for (term, value) in rows {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(term), escape(value));
    }
    out.push_str("</dl>");
}

/// The page about `endpoint`, from what the verdict route answered.
fn page(endpoint: &Endpoint, shown: &Evaluation, document: Option<&str>, badge: &str) -> String {
    let label = shown.badge_label();
    let mut out = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta name=\"color-scheme\" content=\"light dark\"><title>x402 verification: {} — {}</title><script src=\"{EMBED_SCRIPT}\"></script></head><body><main><h1>x402 verification of an endpoint</h1><p>{badge}</p><p><strong>{}</strong>. {}</p>",
        escape(&label),
        escape(endpoint.resource_url()),
        escape(&label),
        escape(&shown.badge_hover()),
    );
    out.push_str("<h2>The endpoint this verdict is about</h2>");
    rows(
        &mut out,
        &[
            ("Resource", endpoint.resource_url()),
            ("Network", endpoint.chain()),
            ("Pays to (payTo)", endpoint.pay_to()),
        ],
    );
    out.push_str("<p><strong>Compare this endpoint with the one you are asked to pay.</strong> A badge names the endpoint it was issued for, never the page that shows it: when the resource, the network or the payTo address you are asked to pay differ in any character from these, this verdict says nothing about that payment.</p>");
    out.push_str("<h2>The verdict</h2>");
    let Some(document) =
        document.and_then(|d| VerdictDocument::parse(d.as_bytes()).ok().map(|p| (d, p)))
    else {
        out.push_str("<p>The verification service holds no verdict for this endpoint.</p></main></body></html>");
        return out;
    };
    let (text, parsed) = document;
    let operator = parsed
        .raw
        .get("operator")
        .and_then(Value::as_str)
        .unwrap_or("not named");
    let verified = shown
        .verified_at
        .map_or_else(|| "never".to_owned(), |t| t.to_human());
    let cadence = shown.recheck_every_hours.map_or_else(
        || "none promised".to_owned(),
        |h| format!("every {h} hours"),
    );
    rows(
        &mut out,
        &[
            ("State", shown.state.as_str()),
            ("Operator", operator),
            (
                "Assurance",
                shown.assurance_level.as_deref().unwrap_or("none"),
            ),
            ("Verified at", &verified),
            ("Re-checked", &cadence),
            ("Signature", shown.signature.as_str()),
        ],
    );
    let _ = write!(
        out,
        "<h3>In one line</h3><pre>{}</pre><h3>As signed</h3><pre>{}</pre></main></body></html>",
        escape(&shown.text_line()),
        escape(text)
    );
    out
}

/// `GET /v0/endpoint?chain=…&payTo=…&resourceUrl=…`.
pub(super) async fn answer(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let (asked, answered, now) = match asked_and_answered(&service, query).await {
        Ok(both) => both,
        Err(problem) => return crate::bad_request_response(&problem),
    };
    let keys = service_keys(&service);
    let shown = match (&answered.carried, answered.status) {
        (_, StatusCode::OK | StatusCode::NOT_FOUND) => evaluation(answered.carried.as_ref(), &keys),
        (_, status) => Lookup {
            endpoint: asked.endpoint.clone(),
            keys: keys.clone(),
            strict: true,
        }
        .evaluate(
            Answer::Http {
                status: status.as_u16(),
                body: b"",
            },
            now,
        ),
    };
    let e = &asked.endpoint;
    let public_keys: Vec<String> = std::iter::once(service.keys.current.verifying_key())
        .chain(service.keys.previous.iter().copied())
        .map(|k| encode_base64(k.as_bytes()))
        .collect();
    let mut badge = format!(
        "<span data-x402-verdict data-loading=\"eager\" data-strict data-base-url=\"{}\" data-chain=\"{}\" data-pay-to=\"{}\" data-resource-url=\"{}\" data-public-key=\"{}\"",
        escape(&base_url(&headers)),
        escape(e.chain()),
        escape(e.pay_to()),
        escape(e.resource_url()),
        public_keys.join(","),
    );
    if let Some(carried) = &answered.carried {
        let _ = write!(badge, " data-verdict=\"{}\"", escape(&carried.document));
    }
    badge.push_str("></span>");
    let document = answered.carried.as_ref().map(|c| c.document.as_str());
    let html = page(e, &shown, document, &badge);
    let mut out = HeaderMap::new();
    out.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    out.insert(CACHE_CONTROL, answered.cache.clone());
    out.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(STATIC_CSP),
    );
    let tag = tag_of(html.as_bytes());
    tagged(
        &headers,
        answered.shown_status(),
        out,
        Bytes::from(html),
        &tag,
    )
}
