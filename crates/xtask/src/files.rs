//! `files.js`: the badge package's file names that its JavaScript loads
//! (the script tag's wasm), from the build's configuration
//! (`wasm-pack.toml`), so that the JavaScript names no file by hand.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// Each constant: its name, its doc, and the `wasm-pack.toml` table whose
/// `out-name` names its wasm.
const FILES: [(&str, &str, &str); 1] = [(
    "EMBED_WASM",
    "The script tag's wasm, which embed.js loads from beside itself ([embed-build] out-name).",
    "embed-build",
)];

/// The module, from `root`'s `wasm-pack.toml`.
///
/// # Errors
///
/// One line when `wasm-pack.toml` cannot be read or names no stem.
pub fn module(root: &Path) -> Result<String, String> {
    let text = fs::read_to_string(root.join("wasm-pack.toml"))
        .map_err(|error| format!("cannot read wasm-pack.toml: {error}"))?;
    let config: toml::Table = toml::from_str(&text).map_err(|error| {
        let message = error.to_string();
        format!(
            "wasm-pack.toml: {}",
            message.lines().next().unwrap_or_default()
        )
    })?;
    let mut out = crate::JS_HEADER.to_owned();
    for (name, doc, table) in FILES {
        let stem = config
            .get(table)
            .and_then(|t| t.get("out-name"))
            .and_then(toml::Value::as_str)
            .filter(|stem| !stem.is_empty())
            .ok_or_else(|| {
                format!("wasm-pack.toml: [{table}] out-name must be a file name stem")
            })?;
        let _ = write!(
            out,
            "/** {doc} */\nexport const {name} = {:?};\n",
            format!("{stem}_bg.wasm")
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::fs;

    /// A configuration without a stem is named in one line.
    #[test]
    fn a_missing_stem_is_named() {
        let root = std::env::temp_dir().join(format!("xtask-files-{}", std::process::id()));
        fs::create_dir_all(&root).expect("a scratch folder");
        fs::write(
            root.join("wasm-pack.toml"),
            "[embed-build]\nfeatures = []\n",
        )
        .expect("written");
        assert_eq!(
            super::module(&root),
            Err("wasm-pack.toml: [embed-build] out-name must be a file name stem".to_owned())
        );
        fs::write(root.join("wasm-pack.toml"), "[embed-build\n").expect("written");
        assert!(super::module(&root)
            .is_err_and(|e| e.starts_with("wasm-pack.toml: ") && !e.contains('\n')));
        fs::remove_dir_all(root).expect("cleaned");
    }
}
