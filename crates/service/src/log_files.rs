//! `GET /v0/log/…`: the log read-only, as tlog-tiles serves it. The
//! checkpoint is the one published (cosigned), cached for a few seconds;
//! a tile or entry bundle is answered only when that checkpoint holds it
//! (a batch's files are written before its checkpoint, and a crash may
//! leave files no checkpoint names: they are never served), full ones
//! immutable for a year, partial ones for a minute.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use x402_verdict_core::transparency::Tile;

use crate::recorder::Recorder;

/// The log's prefix in the service's paths.
pub const LOG_PATH: &str = "/v0/log";

/// The checkpoint's `Cache-Control`: a few seconds.
pub const CHECKPOINT_CACHE: &str = "public, max-age=5";

/// A full tile's or bundle's `Cache-Control`: it never changes.
pub const FULL_TILE_CACHE: &str = "public, max-age=31536000, immutable";

/// A partial tile's or bundle's `Cache-Control`: kept while the log
/// fills the tile.
pub const PARTIAL_TILE_CACHE: &str = "public, max-age=60";

/// The routes under [`LOG_PATH`].
pub(crate) fn routes(recorder: Arc<Recorder>) -> Router {
    Router::new()
        .route("/v0/log/checkpoint", get(checkpoint))
        .route("/v0/log/tile/{*path}", get(tile))
        .with_state(recorder)
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(CACHE_CONTROL, "public, max-age=5")],
        "no such tile in the log's checkpoint\n",
    )
        .into_response()
}

async fn checkpoint(State(recorder): State<Arc<Recorder>>) -> Response {
    let published = recorder.published();
    (
        [
            (CACHE_CONTROL, CHECKPOINT_CACHE),
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
        ],
        published.checkpoint.to_string(),
    )
        .into_response()
}

async fn tile(State(recorder): State<Arc<Recorder>>, Path(path): Path<String>) -> Response {
    let path = format!("tile/{path}");
    let Some(tile) = Tile::from_path(&path) else {
        return not_found();
    };
    if !tile.within(recorder.published().size) {
        return not_found();
    }
    let Ok(bytes) = tokio::fs::read(recorder.dir.join(&path)).await else {
        return not_found();
    };
    let cache = if tile.is_full() {
        FULL_TILE_CACHE
    } else {
        PARTIAL_TILE_CACHE
    };
    (
        [
            (CACHE_CONTROL, cache),
            (CONTENT_TYPE, "application/octet-stream"),
        ],
        bytes,
    )
        .into_response()
}
