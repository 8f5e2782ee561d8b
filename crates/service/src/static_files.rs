//! The `--www` folder, served as a CDN serves files: only what is inside it.
//!
//! - A file whose real path (every symbolic link resolved) is outside the
//!   folder is not found: a link inside the folder never serves `/etc/passwd`.
//! - A dotfile or anything in a dot-folder (`.env`, `.git/config`) is not
//!   found, however its name is encoded.
//! - The redirect from a folder to its index (`/metrics` to `/metrics/`)
//!   names the folder relative to the request (`./metrics/`), so it always
//!   stays on this host: `GET //metrics` never leads to `http://metrics/`.
//!
//! Everything else is tower-http's `ServeDir` (index files, ranges,
//! conditional requests, content types).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::LOCATION;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use percent_encoding::percent_decode_str;
use tower_http::services::ServeDir;

/// The folder served, by its real path.
#[derive(Clone, Debug)]
pub struct StaticFiles {
    root: PathBuf,
    serve: ServeDir,
}

/// Why a folder cannot be served.
#[derive(Debug)]
pub enum StaticFilesError {
    /// It is not a folder (or cannot be resolved).
    NotAFolder(PathBuf, io::Error),
}

impl fmt::Display for StaticFilesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAFolder(dir, e) => write!(f, "--www {}: not a folder ({e})", dir.display()),
        }
    }
}

impl std::error::Error for StaticFilesError {}

impl StaticFiles {
    /// Serves the folder `dir`.
    ///
    /// # Errors
    ///
    /// `dir` is not a folder.
    pub fn new(dir: &Path) -> Result<Self, StaticFilesError> {
        let not_a_folder = |e| StaticFilesError::NotAFolder(dir.to_owned(), e);
        let root = dir.canonicalize().map_err(not_a_folder)?;
        if !root.is_dir() {
            return Err(not_a_folder(io::Error::from(io::ErrorKind::NotADirectory)));
        }
        Ok(StaticFiles {
            serve: ServeDir::new(&root),
            root,
        })
    }

    /// Whether the request's path names something inside the folder that may
    /// be served: no segment starts with `.` (once percent-decoded), and its
    /// real path, and that of a folder's `index.html`, is inside the folder.
    fn may_serve(&self, path: &str) -> bool {
        let Ok(decoded) = percent_decode_str(path).decode_utf8() else {
            // ServeDir finds nothing under a path that is not UTF-8.
            return true;
        };
        let segments = decoded.split(['/', '\\']).filter(|s| !s.is_empty());
        let mut file = self.root.clone();
        for segment in segments {
            if segment.starts_with('.') {
                return false;
            }
            file.push(segment);
        }
        let inside = |file: &Path| match file.canonicalize() {
            Ok(real) => real.starts_with(&self.root),
            // Nothing there: ServeDir answers 404.
            Err(_) => true,
        };
        inside(&file) && (!file.is_dir() || inside(&file.join("index.html")))
    }
}

/// Answers a request for a static file (the service's fallback).
pub async fn serve(State(files): State<StaticFiles>, request: Request) -> Response {
    if !files.may_serve(request.uri().path()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let redirect = relative_redirect(request.uri().path(), request.uri().query());
    let mut response = match files.serve.clone().try_call(request).await {
        Ok(response) => response.map(Body::new),
        Err(e) => {
            tracing::error!("could not read a static file: {e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    if response.headers().contains_key(LOCATION) {
        match redirect {
            Some(location) => {
                response.headers_mut().insert(LOCATION, location);
            }
            None => return StatusCode::NOT_FOUND.into_response(),
        }
    }
    response
}

/// The `Location` of the redirect from folder `path` to its index, relative
/// to `path` itself: `./name/` (and the query), where `name` is its last
/// segment as sent. `./` keeps a name holding `:` from reading as a scheme.
fn relative_redirect(path: &str, query: Option<&str>) -> Option<HeaderValue> {
    let name = path.rsplit('/').next().filter(|n| !n.is_empty())?;
    let location = match query {
        Some(query) => format!("./{name}/?{query}"),
        None => format!("./{name}/"),
    };
    HeaderValue::from_str(&location).ok()
}

#[cfg(test)]
mod tests {
    use super::relative_redirect;

    #[test]
    fn redirects_stay_relative_to_the_request() {
        let at =
            |path, query| relative_redirect(path, query).map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(at("/metrics", None).as_deref(), Some("./metrics/"));
        assert_eq!(at("//metrics", None).as_deref(), Some("./metrics/"));
        assert_eq!(at("/a/b:c", Some("x=1")).as_deref(), Some("./b:c/?x=1"));
        assert_eq!(at("/a/", None), None);
    }
}
