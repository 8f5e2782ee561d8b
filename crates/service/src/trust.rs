//! The root of trust on the service's side: the root key file, `keygen
//! --root`, `certify`, `root rotate`, what a verdict carries, and the
//! published root versions (`/v0/root/N.json`).
//!
//! The root key file:
//!
//! ```json
//! { "version": 2, "keyId": "…", "publicKey": "…", "secretKey": "<base64 32-byte seed>",
//!   "roots": [ "<base64 root version 1>", "<base64 root version 2>" ] }
//! ```
//!
//! `roots` holds every root version from 1 to `version`; `serve` never reads
//! this file, only the key file into which `certify` copies them.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use axum::body::Bytes;
use axum::extract::{Path as UrlPath, State};
use axum::response::Response;
use serde_json::{json, Value};
use x402_verdict_core::ed25519_dalek::{SigningKey, VerifyingKey};
use x402_verdict_core::json::{Object, Value as CoreValue};
use x402_verdict_core::{
    certify_key, encode_base64, root_version_of, sign_root, Certificate, CertifyError, KeyId,
    RootSigner, Timestamp, DEFAULT_CERTIFICATE_SECONDS,
};

use crate::keyfile::{load_secret_json, secret_key, KeyFile, KeyFileError, SecretJsonError};
use crate::secret_file::{self, SecretFileError};

/// Why a root key file cannot be used: the file, then what is wrong with it.
pub type RootFileError = SecretJsonError<RootFileRule>;

/// A rule a root key file's contents can break.
#[derive(Debug, thiserror::Error)]
pub enum RootFileRule {
    /// `secretKey` is not base64 of a 32-byte seed.
    #[error("secretKey is missing or not base64 of 32 bytes")]
    SecretKey,
    /// `version` is not a whole number from 1.
    #[error("version is missing or not a whole number from 1")]
    Version,
    /// `roots` does not hold one root version for each version from 1,
    /// the last one naming this key.
    #[error("roots must hold every root version from 1 to version, the last naming this key")]
    Roots,
}

/// A root key: its secret, its version, and every root version up to it.
pub struct RootFile {
    /// The secret key of root version `version`.
    pub key: SigningKey,
    /// Its version, from 1.
    pub version: u32,
    /// Root versions 1 to `version`, signed (base64).
    pub roots: Vec<String>,
}

impl RootFile {
    /// Root version 1, a fresh key from the operating system's random source.
    pub fn generate() -> Self {
        let key = SigningKey::generate(&mut rand_core::OsRng);
        let roots = vec![sign_root(1, &key, None)];
        RootFile {
            key,
            version: 1,
            roots,
        }
    }

    /// Root version `version + 1`, a fresh key, signed by this one and itself.
    pub fn rotated(&self) -> Self {
        let key = SigningKey::generate(&mut rand_core::OsRng);
        let version = self.version + 1;
        let mut roots = self.roots.clone();
        roots.push(sign_root(version, &key, Some(&self.key)));
        RootFile {
            key,
            version,
            roots,
        }
    }

    /// Reads and checks a root key file: its mode, type and size before its
    /// contents.
    ///
    /// # Errors
    ///
    /// One line naming the file and the member that is wrong.
    pub fn load(path: &Path) -> Result<Self, RootFileError> {
        load_secret_json(path, Self::from_json)
    }

    fn from_json(doc: &Value) -> Result<Self, RootFileRule> {
        let key = secret_key(&doc["secretKey"]).ok_or(RootFileRule::SecretKey)?;
        let version = doc["version"]
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .filter(|v| *v >= 1)
            .ok_or(RootFileRule::Version)?;
        let roots: Vec<String> = doc["roots"]
            .as_array()
            .map(|roots| {
                roots
                    .iter()
                    .filter_map(|r| r.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        let read: Vec<_> = roots.iter().filter_map(|r| root_version_of(r)).collect();
        let numbered = read
            .iter()
            .enumerate()
            .all(|(i, (v, _))| *v as usize == i + 1);
        let last_names_key = read.last().map(|(_, k)| *k) == Some(key.verifying_key());
        if read.len() != version as usize
            || roots.len() != read.len()
            || !numbered
            || !last_names_key
        {
            return Err(RootFileRule::Roots);
        }
        Ok(RootFile {
            key,
            version,
            roots,
        })
    }

    /// Writes the file atomically, readable by its owner only.
    ///
    /// # Errors
    ///
    /// As [`secret_file::write`].
    pub fn save(&self, path: &Path) -> Result<(), SecretFileError> {
        let public = self.key.verifying_key();
        let doc = json!({
            "version": self.version,
            "keyId": KeyId::of(&public).to_string(),
            "publicKey": encode_base64(public.as_bytes()),
            "secretKey": encode_base64(self.key.as_bytes()),
            "roots": self.roots,
        });
        secret_file::write(path, format!("{doc:#}\n").as_bytes())
    }
}

/// Why a root command wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    /// The root key file cannot be used.
    #[error(transparent)]
    Root(#[from] RootFileError),
    /// The key file cannot be used.
    #[error(transparent)]
    Keys(#[from] KeyFileError),
    /// The file to write is there already.
    #[error("{}: already exists (a root key file is never overwritten)", .0.display())]
    Exists(PathBuf),
    /// The key file already carries a newer root version than the root key
    /// file given: certifying under it would send consumers that walked to
    /// the newer version a rollback.
    #[error("{}: already carries root version {held}, and {} is version {given}: certify with the newest root key file", keys.display(), root.display())]
    OlderRoot {
        /// The key file.
        keys: PathBuf,
        /// The root key file given.
        root: PathBuf,
        /// The newest root version the key file carries.
        held: usize,
        /// The root key file's version.
        given: u32,
    },
    /// The certificate's window is refused.
    #[error(transparent)]
    Window(#[from] CertifyError),
    /// A file cannot be written.
    #[error(transparent)]
    Save(#[from] SecretFileError),
}

/// Writes a new root key file (root version 1) at `out` and returns its
/// public key: the key consumers pin.
///
/// # Errors
///
/// An existing file, or one that cannot be written.
pub fn keygen_root(out: &Path) -> Result<VerifyingKey, RootError> {
    if out.exists() {
        return Err(RootError::Exists(out.to_owned()));
    }
    let root = RootFile::generate();
    root.save(out)?;
    Ok(root.key.verifying_key())
}

/// What [`certify`] wrote into the key file: the key it certified, and
/// the end of the certificate's validity.
#[derive(Clone, Copy, Debug)]
pub struct Certified {
    /// The key file's current key.
    pub key: VerifyingKey,
    /// The end of its certificate's validity.
    pub not_after: Timestamp,
    /// The root version that certified it.
    pub root_version: u32,
}

/// Certifies the current key of the key file `keys` under the root key file
/// `root`, from now to `not_after` (default [`DEFAULT_CERTIFICATE_SECONDS`]
/// from now), and writes the certificate and every root version into the
/// key file.
///
/// # Errors
///
/// A file that cannot be used, a root key file older than the root
/// versions the key file carries, or a window refused.
pub fn certify(
    root_path: &Path,
    keys: &Path,
    not_after: Option<Timestamp>,
) -> Result<Certified, RootError> {
    let root = RootFile::load(root_path)?;
    let path = keys;
    let mut keys = KeyFile::load(path)?;
    if keys.roots.len() > root.roots.len() {
        return Err(RootError::OlderRoot {
            keys: path.to_owned(),
            root: root_path.to_owned(),
            held: keys.roots.len(),
            given: root.version,
        });
    }
    let now = Timestamp::from_system_time(SystemTime::now());
    let not_after = not_after.unwrap_or_else(|| now.plus_seconds(DEFAULT_CERTIFICATE_SECONDS));
    let signer = RootSigner {
        key: &root.key,
        version: root.version,
    };
    let key = keys.current.verifying_key();
    let certificate = certify_key(&key, now, not_after, signer)?;
    keys.certificate = Some(certificate);
    keys.roots = root.roots;
    keys.save(path)?;
    Ok(Certified {
        key,
        not_after,
        root_version: root.version,
    })
}

/// Writes root version N+1 at `out`, signed by version N (the root key
/// file `root`) and by itself, and returns its version and public key.
///
/// # Errors
///
/// A file that cannot be used or written.
pub fn rotate_root(root: &Path, out: &Path) -> Result<(u32, VerifyingKey), RootError> {
    let next = RootFile::load(root)?.rotated();
    if out.exists() {
        return Err(RootError::Exists(out.to_owned()));
    }
    next.save(out)?;
    Ok((next.version, next.key.verifying_key()))
}

/// How long before its certificate's end `serve` warns that the current key
/// needs certifying again.
const CERTIFICATE_WARNING_SECONDS: i64 = 14 * 86_400;

/// Warns, as `serve` starts, when the key file's current key would be read
/// as `unverifiable` by consumers that pin the root, or soon will: rotated
/// since the last `certify` (no certificate), or its certificate over or
/// ending within 14 days. A key file never certified is left alone: its
/// consumers pin its keys.
pub(crate) fn warn_about_certificate(path: &Path, keys: &KeyFile, now: Timestamp) {
    let path = path.display();
    let run = "run: x402-verdict certify";
    let Some(certificate) = &keys.certificate else {
        if !keys.roots.is_empty() {
            tracing::warn!("{path}: the current key has no certificate (rotated since the last certify): consumers that pin the root read its verdicts as unverifiable; {run}");
        }
        return;
    };
    let Some(not_after) = Certificate::parse(certificate).map(|c| c.not_after) else {
        return;
    };
    if not_after < now {
        tracing::warn!("{path}: the current key's certificate ended at {}: consumers that pin the root read its verdicts as unverifiable; {run}", not_after.to_rfc3339());
    } else if not_after < now.plus_seconds(CERTIFICATE_WARNING_SECONDS) {
        tracing::warn!(
            "{path}: the current key's certificate ends at {}: {run} before then",
            not_after.to_rfc3339()
        );
    }
}

/// What every verdict this key file signs carries beside `verdict` and
/// `signature`: the current key's `certificate` and, when its root is newer
/// than version 1, the `roots` from version 2 on.
pub fn carried(keys: &KeyFile) -> Object {
    let mut members = Object::new();
    if let Some(certificate) = &keys.certificate {
        members.insert("certificate", CoreValue::String(certificate.clone()));
        if keys.roots.len() > 1 {
            let roots = keys.roots[1..].iter().cloned().map(CoreValue::String);
            members.insert("roots", CoreValue::Array(roots.collect()));
        }
    }
    members
}

/// The cache lifetime of a root version: it never changes.
const ROOT_CACHE: &str = "public, max-age=31536000, immutable";

/// `GET /v0/root/N.json`: root version N (`root`, as verdicts carry it),
/// with the version and key it names.
pub(crate) async fn root_version(
    State(roots): State<std::sync::Arc<Vec<Bytes>>>,
    UrlPath(file): UrlPath<String>,
) -> Response {
    let version = file
        .strip_suffix(".json")
        .filter(|n| !n.starts_with('0') && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<usize>().ok());
    match version.and_then(|n| roots.get(n.checked_sub(1)?)) {
        Some(root) => crate::serialized_response(ROOT_CACHE, root.clone()),
        None => crate::json_response(
            axum::http::StatusCode::NOT_FOUND,
            crate::NOT_FOUND_CACHE,
            json!({ "error": "no such root version" }),
        ),
    }
}

/// The routes of the published root versions.
pub(crate) fn routes(keys: &KeyFile) -> axum::Router {
    let roots: Vec<Bytes> = keys
        .roots
        .iter()
        .filter_map(|root| {
            let (version, key) = root_version_of(root)?;
            let document = json!({
                "version": version,
                "keyId": KeyId::of(&key).to_string(),
                "publicKey": encode_base64(key.as_bytes()),
                "root": root,
            });
            Some(document.to_string().into())
        })
        .collect();
    axum::Router::new()
        .route("/v0/root/{file}", axum::routing::get(root_version))
        .with_state(std::sync::Arc::new(roots))
}
