//! The demo paid resource of `serve --demo-paid FILE`: `GET /demo/paid`
//! answers `402 Payment Required` with a real x402 v2 challenge, in the
//! `PAYMENT-REQUIRED` header (base64) and repeated as the JSON body, so that
//! `x402-verdict check` has something to read. It never takes a payment.

use std::path::{Path, PathBuf};

use axum::body::Bytes;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use x402_verdict_core::{encode_base64, Challenge, ChallengeError, PAYMENT_REQUIRED_HEADER};

use crate::jsonfile::JsonFileError;

/// Where the demo paid resource answers.
pub const PATH: &str = "/demo/paid";

/// Why `--demo-paid`'s file cannot be served: the file, then what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum DemoPaidError {
    /// It cannot be read, or is not strict JSON.
    #[error(transparent)]
    File(#[from] JsonFileError),
    /// It is not a challenge a consumer reads.
    #[error("{}", path.display())]
    NotAChallenge {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: ChallengeError,
    },
    /// It is a challenge of x402 v1, which has no `PAYMENT-REQUIRED` header.
    #[error("{}: x402Version is not 2 (the PAYMENT-REQUIRED header is x402 v2)", .0.display())]
    NotVersion2(PathBuf),
    /// Its base64 is not a header value (never seen: base64 is ASCII).
    #[error("{}", path.display())]
    NotAHeader {
        /// The file.
        path: PathBuf,
        /// What the header type said.
        source: axum::http::header::InvalidHeaderValue,
    },
}

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
    pub fn load(path: &Path) -> Result<Self, DemoPaidError> {
        let value = crate::jsonfile::read(path)?;
        let body = value.to_string().into_bytes();
        let challenge =
            Challenge::from_json(&body).map_err(|source| DemoPaidError::NotAChallenge {
                path: path.to_owned(),
                source,
            })?;
        if challenge.version != 2 {
            return Err(DemoPaidError::NotVersion2(path.to_owned()));
        }
        let header = HeaderValue::try_from(encode_base64(&body)).map_err(|source| {
            DemoPaidError::NotAHeader {
                path: path.to_owned(),
                source,
            }
        })?;
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
                (
                    HeaderName::from_static(PAYMENT_REQUIRED_HEADER),
                    self.header.clone(),
                ),
                (CONTENT_TYPE, HeaderValue::from_static("application/json")),
                (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
            self.body.clone(),
        )
            .into_response()
    }
}
