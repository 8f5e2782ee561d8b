//! The operator file of `serve --operator`: who publishes the metrics, and
//! what they disclose.
//!
//! ```json
//! { "operator": "Example operator", "relatedParty": true,
//!   "disclosure": "The operator runs a related-party pilot: …" }
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use x402_verdict_core::hidden;

use crate::jsonfile::{self, JsonFileError};

/// The longest operator name accepted, in characters.
const MAX_NAME: usize = 200;
/// The longest disclosure accepted, in characters.
const MAX_DISCLOSURE: usize = 4000;

/// Why an operator file cannot be used: the file, then what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum OperatorFileError {
    /// It cannot be read, or is not strict JSON.
    #[error(transparent)]
    File(#[from] JsonFileError),
    /// A member is missing, of the wrong type, or unknown.
    #[error("{}", path.display())]
    Members {
        /// The file.
        path: PathBuf,
        /// What `serde_json` said.
        source: serde_json::Error,
    },
    /// A text breaks a rule.
    #[error("{}", path.display())]
    Text {
        /// The file.
        path: PathBuf,
        /// The rule broken.
        source: TextError,
    },
}

/// A rule the operator's name or disclosure can break.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// Nothing but white space.
    #[error("{0} is empty")]
    Empty(&'static str),
    /// Longer than the limit (given) in characters.
    #[error("{0} is longer than {1} characters")]
    TooLong(&'static str, usize),
    /// It holds a control or invisible format character.
    #[error("{0} contains a control or invisible format character")]
    Hidden(&'static str),
}

/// The operator block of the published metrics.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OperatorFile {
    /// The operator's name.
    pub operator: String,
    /// Whether the operator runs a related-party pilot.
    pub related_party: bool,
    /// The disclosure shown with the figures.
    pub disclosure: String,
}

impl OperatorFile {
    /// Reads and checks an operator file, as strictly as the registry.
    ///
    /// # Errors
    ///
    /// One line naming the file and the field that is wrong.
    pub fn load(path: &Path) -> Result<Self, OperatorFileError> {
        let doc = jsonfile::read(path)?;
        let file: OperatorFile =
            serde_json::from_value(doc).map_err(|source| OperatorFileError::Members {
                path: path.to_owned(),
                source,
            })?;
        check_text("operator", &file.operator, MAX_NAME)
            .and_then(|()| check_text("disclosure", &file.disclosure, MAX_DISCLOSURE))
            .map_err(|source| OperatorFileError::Text {
                path: path.to_owned(),
                source,
            })?;
        Ok(file)
    }
}

fn check_text(field: &'static str, text: &str, max: usize) -> Result<(), TextError> {
    if text.trim().is_empty() {
        Err(TextError::Empty(field))
    } else if text.chars().count() > max {
        Err(TextError::TooLong(field, max))
    } else if text.chars().any(hidden::is_hidden) {
        Err(TextError::Hidden(field))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The message of the file `doc`'s error after the file's name, if it has one.
    fn message(doc: &str) -> Option<String> {
        let path = std::env::temp_dir().join(format!("operator-{}.json", std::process::id()));
        std::fs::write(&path, doc).unwrap();
        let result = OperatorFile::load(&path);
        std::fs::remove_file(&path).unwrap();
        let message = x402_verdict_consumer::error_chain(&result.err()?);
        Some(message.rsplit_once(".json: ").unwrap().1.to_owned())
    }

    #[test]
    fn names_the_field_that_is_wrong() {
        let good = json!({ "operator": "Op", "relatedParty": true, "disclosure": "A pilot." });
        assert_eq!(message(&good.to_string()), None);
        let with = |k: &str, v| {
            let mut d = good.clone();
            d[k] = v;
            message(&d.to_string()).unwrap()
        };
        assert_eq!(with("operator", json!(" ")), "operator is empty");
        assert_eq!(
            with("disclosure", json!("a\u{7}b")),
            "disclosure contains a control or invisible format character"
        );
        assert_eq!(
            with("operator", json!("Op\u{202e}")),
            "operator contains a control or invisible format character"
        );
        assert_eq!(
            with("operator", json!("x".repeat(201))),
            "operator is longer than 200 characters"
        );
        assert!(with("relatedParty", json!("yes")).starts_with("invalid type"));
        assert!(with("extra", json!(1)).starts_with("unknown field `extra`"));
        assert_eq!(
            message(r#"{"operator":"Op","relatedParty":true}"#).unwrap(),
            "missing field `disclosure`"
        );
        assert!(message(r#"{"operator":"Op","operator":"Op"}"#)
            .unwrap()
            .contains("duplicate"));
    }
}
