//! Published metrics: the service's `GET /v0/metrics` (computed from the
//! registry and an aggregate count of verdict answers), and the commands
//! that snapshot it and render the static metrics page.

pub mod commands;
pub mod counter;
pub mod operator;
pub mod page;
pub mod report;

use std::path::Path;
use std::sync::Arc;

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use x402_verdict_core::{Month, Timestamp};

use super::registry::Registry;
use counter::{OpenError, VerdictCounter};
use operator::{OperatorFile, OperatorFileError};

/// Why the service cannot publish metrics as asked.
#[derive(Debug, thiserror::Error)]
pub enum PublisherError {
    /// The operator file.
    #[error(transparent)]
    Operator(#[from] OperatorFileError),
    /// The counts database.
    #[error(transparent)]
    Counter(#[from] OpenError),
}

/// The figures change once a month; an hour of caching is harmless.
const METRICS_CACHE: &str = "public, max-age=3600";

/// What the service publishes metrics from, besides its registry.
pub struct Publisher {
    operator: Option<OperatorFile>,
    counter: Option<Arc<VerdictCounter>>,
}

impl Publisher {
    /// Reads the operator file and opens the counter (`serve --operator`, `--data`).
    ///
    /// # Errors
    ///
    /// One line naming the file or folder that cannot be used.
    pub fn open(
        operator: Option<&Path>,
        data: Option<&Path>,
        now: Timestamp,
    ) -> Result<Self, PublisherError> {
        let operator = operator.map(OperatorFile::load).transpose()?;
        let counter = data
            .map(|dir| VerdictCounter::open(dir, now).map(Arc::new))
            .transpose()?;
        Ok(Publisher { operator, counter })
    }

    /// The counter, when the service keeps one.
    pub fn counter(&self) -> Option<&Arc<VerdictCounter>> {
        self.counter.as_ref()
    }

    /// Counts one verdict answer served at `now`.
    pub fn count_answer(&self, now: Timestamp) {
        if let Some(counter) = &self.counter {
            counter.count(Month::of(now));
        }
    }

    /// The answer to `GET /v0/metrics` at `now`.
    pub async fn respond(&self, registry: &Registry, now: Timestamp) -> Response {
        let error = |status: StatusCode, problem: &str| {
            (
                status,
                [(CACHE_CONTROL, "no-store")],
                axum::Json(serde_json::json!({ "error": problem })),
            )
                .into_response()
        };
        let Some(operator) = &self.operator else {
            return error(
                StatusCode::NOT_FOUND,
                "this service publishes no metrics (it was started without --operator)",
            );
        };
        let counts = match &self.counter {
            None => None,
            Some(counter) => {
                let counter = Arc::clone(counter);
                let unreadable = |problem: &dyn std::fmt::Display| {
                    tracing::error!("cannot read the verdict counts: {problem}");
                    error(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "cannot read the verdict counts",
                    )
                };
                match tokio::task::spawn_blocking(move || counter.totals()).await {
                    Ok(Ok(counts)) => Some(counts),
                    Ok(Err(e)) => return unreadable(&e),
                    Err(e) => return unreadable(&e),
                }
            }
        };
        let body = report::document(registry, operator, counts.as_ref(), now).to_string();
        (
            StatusCode::OK,
            [
                (CACHE_CONTROL, METRICS_CACHE),
                (CONTENT_TYPE, "application/json"),
            ],
            body,
        )
            .into_response()
    }
}
