//! The demo paid resource of `serve --demo-paid FILE`: `GET /demo/paid`
//! answers `402 Payment Required` with a real x402 v2 challenge, in the
//! `PAYMENT-REQUIRED` header (base64) and repeated as the JSON body, so that
//! `x402-verdict check` has something to read. It never takes a payment.

use std::path::Path;

use axum::body::Bytes;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use x402_verdict_core::keys::encode_base64;
use x402_verdict_core::Challenge;

/// Where the demo paid resource answers.
pub const PATH: &str = "/demo/paid";

const PAYMENT_REQUIRED: HeaderName = HeaderName::from_static("payment-required");

/// The challenge the demo paid resource answers with, ready to send.
#[derive(Clone)]
pub struct DemoPaid {
    header: HeaderValue,
    body: Bytes,
}

impl DemoPaid {
    /// Reads an x402 v2 `PaymentRequired` object from `path`, as strictly as
    /// a consumer reads it.
    ///
    /// # Errors
    ///
    /// One line: the file, then what is wrong with it.
    pub fn load(path: &Path) -> Result<Self, String> {
        let at = |problem: String| format!("{}: {problem}", path.display());
        let value = crate::jsonfile::read(path)?;
        let body = serde_json::to_vec(&value).map_err(|e| at(e.to_string()))?;
        let challenge = Challenge::from_json(&body).map_err(|e| at(e.to_string()))?;
        if challenge.version != 2 {
            return Err(at(
                "x402Version is not 2 (the PAYMENT-REQUIRED header is x402 v2)".into(),
            ));
        }
        let header = HeaderValue::try_from(encode_base64(&body)).map_err(|e| at(e.to_string()))?;
        Ok(DemoPaid {
            header,
            body: body.into(),
        })
    }

    /// The route of the demo paid resource.
    pub fn router(self) -> Router {
        Router::new().route(PATH, get(move || async move { self.answer() }))
    }

    fn answer(&self) -> Response {
        (
            StatusCode::PAYMENT_REQUIRED,
            [
                (PAYMENT_REQUIRED, self.header.clone()),
                (CONTENT_TYPE, HeaderValue::from_static("application/json")),
                (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
            self.body.clone(),
        )
            .into_response()
    }
}
