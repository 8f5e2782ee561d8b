//! `GET /v0/badge.svg`: the image badge, which carries the verdict the
//! verdict route answers for the same query ([`x402_verdict_core::image`]).
//!
//! A query that names no endpoint is answered 400 with an image too: the
//! "unknown" badge whose hover text says what is wrong, where a README
//! would otherwise show a broken image and no reason.
//!
//! The picture is a pure function of the document, the time it is drawn
//! at and the style (under this service's keys, which do not change while
//! it runs): the pictures drawn in the current second are kept
//! ([`Drawn`]), so that the signature of a document the verdict route
//! signs again for every request within that second is checked once, not
//! per request.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use sha2::{Digest, Sha256};
use x402_verdict_core::image::{picture, picture_without_verdict, Carried, Style};
use x402_verdict_core::{encode_base64, Evaluation, Lookup, Response as Answer, TrustedKeys};

use super::{asked_and_answered, service_keys, tag_of, tagged};
use crate::Service;

/// The most pictures kept within one second (then the others are drawn anew).
const MAX_DRAWN: usize = 1024;

/// A picture as answered: its bytes, their entity tag, its policy.
#[derive(Clone)]
struct Picture {
    svg: Bytes,
    tag: String,
    policy: HeaderValue,
}

impl Picture {
    fn of(svg: String) -> Picture {
        Picture {
            tag: tag_of(svg.as_bytes()),
            policy: policy(&svg),
            svg: Bytes::from(svg),
        }
    }
}

/// The pictures drawn in the current second, by style and document.
#[derive(Default)]
pub(crate) struct Drawn(Mutex<(i64, [HashMap<String, Picture>; 3])>);

impl Drawn {
    /// `carried`'s picture in `style` under `keys`: kept, or drawn and kept.
    fn picture(&self, carried: &Carried, keys: &TrustedKeys, style: Style) -> Picture {
        let second = carried.at.unix_seconds();
        let at = style as usize;
        if let Ok(kept) = self.0.lock() {
            if let Some(picture) = kept.1[at]
                .get(&carried.document)
                .filter(|_| kept.0 == second)
            {
                return picture.clone();
            }
        }
        let drawn = Picture::of(picture(Some(carried), keys, style));
        if let Ok(mut kept) = self.0.lock() {
            if kept.0 != second {
                *kept = (second, Default::default());
            }
            if kept.1[at].len() < MAX_DRAWN {
                kept.1[at].insert(carried.document.clone(), drawn.clone());
            }
        }
        drawn
    }
}

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

/// The image's answer: its status, caching and picture.
fn image(
    request: &HeaderMap,
    status: StatusCode,
    cache: HeaderValue,
    picture: Picture,
) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(SVG));
    headers.insert(CACHE_CONTROL, cache);
    headers.insert(CONTENT_SECURITY_POLICY, picture.policy);
    tagged(request, status, headers, picture.svg, &picture.tag)
}

/// `GET /v0/badge.svg?chain=…&payTo=…&resourceUrl=…[&style=…]`.
pub(super) async fn answer(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let (asked, answered, now) = match asked_and_answered(&service, query).await {
        Ok(both) => both,
        Err(problem) => {
            let style = Style::Flat;
            let svg =
                picture_without_verdict(&Evaluation::invalid_input(problem.to_string()), style);
            return image(
                &headers,
                StatusCode::BAD_REQUEST,
                HeaderValue::from_static("no-store"),
                Picture::of(svg),
            );
        }
    };
    let keys = service_keys(&service);
    let picture = match (&answered.carried, answered.status) {
        (Some(carried), _) => service.drawn.picture(carried, &keys, asked.style),
        (None, StatusCode::NOT_FOUND) => Picture::of(picture(None, &keys, asked.style)),
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
            Picture::of(picture_without_verdict(&failed, asked.style))
        }
    };
    image(
        &headers,
        answered.shown_status(),
        answered.cache.clone(),
        picture,
    )
}
