//! The demo facilitator listing of `serve --demo-discovery FILE`:
//! `GET /discovery/resources?limit=&offset=` answers as a facilitator's
//! bazaar extension does (`{"x402Version": 2, "items", "pagination"}`),
//! paging the file's items, so that `x402-verdict scan` and the explorer
//! page have a listing to read. Every item is checked at start as strictly
//! as `scan` reads it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::extract::RawQuery;
use axum::http::header::CACHE_CONTROL;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use x402_verdict_core::discovery::{ItemError, Page, PageError, MAX_PAGE_ITEMS};

use crate::jsonfile::JsonFileError;

/// Where the listing answers.
pub const PATH: &str = "/discovery/resources";

/// The page size when `limit` is not given.
const DEFAULT_LIMIT: usize = 100;

/// Why `--demo-discovery`'s file cannot be served: the file, then what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum DemoDiscoveryError {
    /// It cannot be read, or is not strict JSON.
    #[error(transparent)]
    File(#[from] JsonFileError),
    /// It is not a list of items.
    #[error("{}: expected a JSON list of discovery items", .0.display())]
    NotAList(PathBuf),
    /// An item is not one `scan` reads.
    #[error("{}", path.display())]
    Item {
        /// The file.
        path: PathBuf,
        /// The item, and what is wrong with it.
        source: ItemError,
    },
    /// The items do not make a page (never seen: each was read alone).
    #[error("{}", path.display())]
    Page {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: PageError,
    },
}

/// The listing's items, ready to page.
#[derive(Clone)]
pub struct DemoDiscovery {
    items: Arc<Vec<Value>>,
}

impl DemoDiscovery {
    /// Reads a JSON list of discovery items from `path`, each as strictly
    /// as `scan` reads it.
    ///
    /// # Errors
    ///
    /// One line: the file, then the first item that is wrong and why.
    pub fn load(path: &Path) -> Result<Self, DemoDiscoveryError> {
        let value = crate::jsonfile::read(path)?;
        let items: Vec<Value> = match serde_json::from_str(&value.to_string()) {
            Ok(Value::Array(items)) => items,
            _ => return Err(DemoDiscoveryError::NotAList(path.to_owned())),
        };
        for (index, chunk) in items.chunks(MAX_PAGE_ITEMS).enumerate() {
            let page = json!({ "items": chunk }).to_string();
            let read =
                Page::from_json(page.as_bytes()).map_err(|source| DemoDiscoveryError::Page {
                    path: path.to_owned(),
                    source,
                })?;
            if let Some(Err(e)) = read.items.into_iter().find(Result::is_err) {
                let source = ItemError {
                    index: index * MAX_PAGE_ITEMS + e.index,
                    ..e
                };
                return Err(DemoDiscoveryError::Item {
                    path: path.to_owned(),
                    source,
                });
            }
        }
        Ok(DemoDiscovery {
            items: Arc::new(items),
        })
    }

    /// The route of the listing.
    pub fn router(self) -> Router {
        Router::new().route(
            PATH,
            get(move |RawQuery(query): RawQuery| async move { self.page(query.as_deref()) }),
        )
    }

    fn page(&self, query: Option<&str>) -> Response {
        let (limit, offset) = match paging(query.unwrap_or_default()) {
            Ok(paging) => paging,
            Err(error) => {
                let body = json!({ "error": error.to_string() });
                return (StatusCode::BAD_REQUEST, Json(body)).into_response();
            }
        };
        let start = offset.min(self.items.len());
        let end = start.saturating_add(limit).min(self.items.len());
        let page = json!({
            "x402Version": 2,
            "items": &self.items[start..end],
            "pagination": { "limit": limit, "offset": offset, "total": self.items.len() },
        });
        ([(CACHE_CONTROL, "public, max-age=60")], Json(page)).into_response()
    }
}

/// Why a listing request's paging is refused (its 400 answer's `error`).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
enum PagingError {
    /// `limit` or `offset` is not a whole number.
    #[error("{0} must be a whole number")]
    NotANumber(&'static str),
    /// `limit` is out of range.
    #[error("limit must be from 1 to {MAX_PAGE_ITEMS}")]
    LimitOutOfRange,
}

/// `limit` (1 to [`MAX_PAGE_ITEMS`], by default [`DEFAULT_LIMIT`]) and
/// `offset` (by default 0) from a query string.
fn paging(query: &str) -> Result<(usize, usize), PagingError> {
    let (mut limit, mut offset) = (DEFAULT_LIMIT, 0);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        let number = |name| {
            value
                .parse::<usize>()
                .map_err(|_| PagingError::NotANumber(name))
        };
        match name {
            "limit" => limit = number("limit")?,
            "offset" => offset = number("offset")?,
            _ => {}
        }
    }
    if !(1..=MAX_PAGE_ITEMS).contains(&limit) {
        return Err(PagingError::LimitOutOfRange);
    }
    Ok((limit, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_reads_limit_and_offset_or_says_which_is_wrong() {
        assert_eq!(paging(""), Ok((DEFAULT_LIMIT, 0)));
        assert_eq!(paging("limit=5&offset=10&other=x"), Ok((5, 10)));
        let refused = |query| paging(query).unwrap_err().to_string();
        assert_eq!(refused("limit=five"), "limit must be a whole number");
        assert_eq!(refused("offset=-1"), "offset must be a whole number");
        assert_eq!(
            refused("limit=0"),
            format!("limit must be from 1 to {MAX_PAGE_ITEMS}")
        );
    }
}
