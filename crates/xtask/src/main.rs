//! The repository's own tasks, run as `cargo xtask <task>` (the alias in
//! `.cargo/config.toml`).
//!
//! `cargo xtask generate` writes every file the repository derives from
//! another, each committed so that an editor, `tsc` and `mypy` resolve every
//! import in a fresh clone; `cargo xtask generate --check` (which
//! `npm test` runs) writes nothing and fails, one line per file, when a
//! committed one is not what it would write. The files
//! ([`generated`](generated::files)), most under `js/generated/`:
//!
//! - `words.js`: the words and spellings the badge package's JavaScript
//!   needs, from the core and from the browser crate's own words
//!   (`src/words.rs`), so that the JavaScript holds no copy of them;
//! - `extension-words.js`: the bounds, spellings and words the browser
//!   extension's JavaScript needs, from the core and from the browser
//!   crate's words (`src/words/extension.rs`);
//! - `look.js`: each badge state's mark and colour as the badge's
//!   stylesheet (`js/common/badge.js`) draws it, for the extension's toolbar;
//! - `files.js`: the package's file names its JavaScript loads, from
//!   `wasm-pack.toml`;
//! - `verdict-types.d.ts`: the TypeScript types of what the wasm reads and
//!   returns, with the unions of the core's closed vocabularies, which both
//!   packages' types import, so that no union or limit is written by hand;
//! - `schema.json`: the browser extension's managed-policy schema, from
//!   its settings' members;
//! - the Python package's `_vocabulary.py`, the `Literal`s of the core's
//!   vocabularies that its stubs and the guard's policy use;
//! - the core's `image/palette.rs`, the image badge's marks and colours,
//!   read from the browser badge's stylesheet (`js/common/badge.js`).
//!
//! `cargo xtask log-fixture CHAIN PAY_TO RESOURCE_URL [SIZE]` prints, for the
//! consumers' tests, verdict documents signed now with transparency proofs
//! ([`log_fixture`]).

mod extension_words;
mod files;
mod generated;
mod log_fixture;
mod look;
mod palette;
mod python;
mod schema;
mod stylesheet;
mod types;
mod vocabulary;
mod words;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// What a task line that is not one prints, on stderr.
const USAGE: &str = "usage: cargo xtask generate [--check]\n       cargo xtask log-fixture CHAIN PAY_TO RESOURCE_URL [SIZE]";

/// The first line of each generated JavaScript or TypeScript file.
const JS_HEADER: &str = "// Written by `cargo xtask generate`: do not edit.\n";

/// An ES module: the header, then `export const NAME = <JSON>;` for each of
/// `constants`.
fn es_module(constants: &[(&str, serde_json::Value)]) -> String {
    let mut out = JS_HEADER.to_owned();
    for (name, value) in constants {
        let _ = writeln!(out, "export const {name} = {value};");
    }
    out
}

/// The repository's root folder (the workspace's).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [task, chain, pay_to, resource_url, size @ ..] = &args[..] {
        let size = match size {
            [] => Some(log_fixture::MIN_SIZE + 1),
            [size] => size.parse().ok(),
            _ => None,
        };
        if let (true, Some(size)) = (task == "log-fixture", size) {
            let endpoint = [chain.clone(), pay_to.clone(), resource_url.clone()];
            let now = std::time::SystemTime::now();
            println!("{}", log_fixture::fixture(&endpoint, now, size));
            return ExitCode::SUCCESS;
        }
    }
    let check = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate"] => false,
        ["generate", "--check"] => true,
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = root();
    let files = match generated::files(&root) {
        Ok(files) => files,
        Err(problem) => {
            eprintln!("xtask: {problem}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = if check {
        generated::check(&root, &files)
    } else {
        generated::write(&root, &files)
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => {
            for problem in problems {
                eprintln!("{problem}");
            }
            ExitCode::FAILURE
        }
    }
}
