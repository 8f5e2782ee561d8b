//! The operator file of `serve --operator`: who publishes the metrics, and
//! what they disclose.
//!
//! ```json
//! { "operator": "Example operator", "relatedParty": true,
//!   "disclosure": "The operator runs a related-party pilot: …" }
//! ```

use std::path::Path;

use serde::{Deserialize, Serialize};
use x402_verdict_core::hidden;

/// The longest operator name accepted, in characters.
const MAX_NAME: usize = 200;
/// The longest disclosure accepted, in characters.
const MAX_DISCLOSURE: usize = 4000;

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
    pub fn load(path: &Path) -> Result<Self, String> {
        let at = |problem: String| format!("{}: {problem}", path.display());
        let doc = crate::jsonfile::read(path)?;
        let file: OperatorFile = serde_json::from_value(doc).map_err(|e| at(e.to_string()))?;
        check_text("operator", &file.operator, MAX_NAME).map_err(at)?;
        check_text("disclosure", &file.disclosure, MAX_DISCLOSURE).map_err(at)?;
        Ok(file)
    }
}

fn check_text(field: &str, text: &str, max: usize) -> Result<(), String> {
    if text.trim().is_empty() {
        Err(format!("{field} is empty"))
    } else if text.chars().count() > max {
        Err(format!("{field} is longer than {max} characters"))
    } else if text.chars().any(hidden::is_hidden) {
        Err(format!(
            "{field} contains a control or invisible format character"
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn load(doc: &str) -> Result<OperatorFile, String> {
        let path = std::env::temp_dir().join(format!("operator-{}.json", std::process::id()));
        std::fs::write(&path, doc).unwrap();
        let result = OperatorFile::load(&path);
        std::fs::remove_file(&path).unwrap();
        result.map_err(|e| e.rsplit_once(".json: ").unwrap().1.to_owned())
    }

    #[test]
    fn names_the_field_that_is_wrong() {
        let good = json!({ "operator": "Op", "relatedParty": true, "disclosure": "A pilot." });
        assert!(load(&good.to_string()).is_ok());
        let with = |k: &str, v| {
            let mut d = good.clone();
            d[k] = v;
            load(&d.to_string()).unwrap_err()
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
            load(r#"{"operator":"Op","relatedParty":true}"#).unwrap_err(),
            "missing field `disclosure`"
        );
        assert!(load(r#"{"operator":"Op","operator":"Op"}"#)
            .unwrap_err()
            .contains("duplicate"));
    }
}
