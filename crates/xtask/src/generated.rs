//! Every generated file: where it is committed and what it holds, written
//! by `cargo xtask generate` and compared by `cargo xtask generate --check`.

use std::fs;
use std::path::Path;

use crate::{extension_words, files, look, palette, python, schema, types, words};

/// The folder of the generated files the JavaScript imports: every file in
/// it is one of [`files`]'s.
pub const JS_FOLDER: &str = "js/generated";

/// One generated file: its path from the repository's root, and its text.
pub struct Generated {
    /// Its path from the repository's root.
    pub path: String,
    /// What it holds.
    pub text: String,
}

/// Every generated file, as `cargo xtask generate` writes it; `root` is the
/// repository's (the files read there: `wasm-pack.toml`).
///
/// # Errors
///
/// One line naming what could not be read.
pub fn files(root: &Path) -> Result<Vec<Generated>, String> {
    let js = |name: &str, text: String| Generated {
        path: format!("{JS_FOLDER}/{name}"),
        text,
    };
    Ok(vec![
        js("words.js", words::module()),
        js("extension-words.js", extension_words::module()),
        js("look.js", look::module()),
        js("files.js", files::module(root)?),
        js("verdict-types.d.ts", types::declarations()),
        js("schema.json", schema::document()),
        Generated {
            path: "crates/python/python/x402_verdict/_vocabulary.py".to_owned(),
            text: python::module(),
        },
        Generated {
            path: "crates/core/src/image/palette.rs".to_owned(),
            text: palette::module(),
        },
    ])
}

/// The files in [`JS_FOLDER`] under `root` that are none of `files`.
fn strays(root: &Path, files: &[Generated]) -> Vec<String> {
    let Ok(entries) = fs::read_dir(root.join(JS_FOLDER)) else {
        return Vec::new();
    };
    let mut strays: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| format!("{JS_FOLDER}/{}", entry.file_name().to_string_lossy()))
        .filter(|path| files.iter().all(|file| file.path != *path))
        .collect();
    strays.sort();
    strays
}

/// Writes `files` under `root` (those whose text changed), and removes the
/// files of [`JS_FOLDER`] that are none of them.
///
/// # Errors
///
/// One line per file that could not be written or removed.
pub fn write(root: &Path, files: &[Generated]) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    for file in files {
        let path = root.join(&file.path);
        if fs::read_to_string(&path).is_ok_and(|text| text == file.text) {
            continue;
        }
        let written = path
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| fs::write(&path, &file.text));
        match written {
            Ok(()) => println!("wrote {}", file.path),
            Err(error) => problems.push(format!("xtask: cannot write {}: {error}", file.path)),
        }
    }
    for stray in strays(root, files) {
        match fs::remove_file(root.join(&stray)) {
            Ok(()) => println!("removed {stray} (no generator writes it)"),
            Err(error) => problems.push(format!("xtask: cannot remove {stray}: {error}")),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// Whether each of `files` under `root` holds what it would be written
/// with, and [`JS_FOLDER`] holds nothing else.
///
/// # Errors
///
/// One line per stale, missing or stray file, naming it and the command that
/// fixes it.
pub fn check(root: &Path, files: &[Generated]) -> Result<(), Vec<String>> {
    let mut problems: Vec<String> = files
        .iter()
        .filter_map(|file| match fs::read_to_string(root.join(&file.path)) {
            Ok(text) if text == file.text => None,
            Ok(_) => Some(format!(
                "{} is stale (edited by hand, or its source changed): run `cargo xtask generate`",
                file.path
            )),
            Err(_) => Some(format!(
                "{} is missing: run `cargo xtask generate`",
                file.path
            )),
        })
        .collect();
    problems.extend(strays(root, files).into_iter().map(|stray| {
        format!("{stray} is written by no generator: run `cargo xtask generate`, which removes it")
    }));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder of the test's own, in the system's temporary folder.
    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    fn all() -> Vec<Generated> {
        files(&crate::root()).expect("the repository's inputs read")
    }

    /// The committed files are what `cargo xtask generate` writes.
    #[test]
    fn the_committed_files_are_current() {
        let problems = check(&crate::root(), &all()).err().unwrap_or_default();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    /// A generated file edited by hand fails the check, in one line naming
    /// it and the fix; writing again makes it current.
    #[test]
    fn a_file_edited_by_hand_fails_the_check() {
        let root = scratch("edited");
        let files = all();
        write(&root, &files).expect("written");
        assert!(check(&root, &files).is_ok());
        let edited = root.join(JS_FOLDER).join("look.js");
        let text = fs::read_to_string(&edited).expect("look.js written");
        fs::write(&edited, text.replace("#", "#0")).expect("edited");
        let problems = check(&root, &files).expect_err("an edited file is stale");
        assert_eq!(
            problems,
            ["js/generated/look.js is stale (edited by hand, or its source changed): run `cargo xtask generate`"]
        );
        write(&root, &files).expect("written again");
        assert!(check(&root, &files).is_ok());
        fs::remove_dir_all(root).expect("cleaned");
    }

    /// A missing file and a file no generator writes each fail the check;
    /// writing restores the one and removes the other.
    #[test]
    fn missing_and_stray_files_fail_the_check() {
        let root = scratch("strays");
        let files = all();
        write(&root, &files).expect("written");
        fs::remove_file(root.join("crates/python/python/x402_verdict/_vocabulary.py"))
            .expect("removed");
        fs::write(root.join(JS_FOLDER).join("old.js"), "").expect("a stray");
        let problems = check(&root, &files).expect_err("two problems");
        assert_eq!(
            problems,
            [
                "crates/python/python/x402_verdict/_vocabulary.py is missing: run `cargo xtask generate`",
                "js/generated/old.js is written by no generator: run `cargo xtask generate`, which removes it",
            ]
        );
        write(&root, &files).expect("written again");
        assert!(check(&root, &files).is_ok());
        fs::remove_dir_all(root).expect("cleaned");
    }
}
