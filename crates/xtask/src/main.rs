//! The repository's own tasks, run as `cargo xtask <task>` (the alias in
//! `.cargo/config.toml`).
//!
//! `cargo xtask generate <file>` prints one generated file on stdout, as
//! ripgrep's `--generate` prints its man page and completions; the build
//! (`scripts/build.sh`) writes each into the packages:
//!
//! - `words`: `words.js`, the words and spellings the badge package's
//!   JavaScript needs, from the core and from the browser crate's own
//!   words (`src/words.rs`), so that the JavaScript holds no copy of them;
//! - `types`: `verdict-types.d.ts`, the TypeScript unions of the core's
//!   closed vocabularies, which both packages' types import, so that no
//!   union is written by hand;
//! - `extension-words`: `extension-words.js`, the bounds, spellings and
//!   words the browser extension's JavaScript needs, from the core and from
//!   the browser crate's words (`src/words/extension.rs`);
//! - `python-policy`: the Python package's `_policy.py`, the `Literal` of
//!   the guard's policy names, from the core;
//! - `palette`: the core's `image/palette.rs`, the image badge's marks and
//!   colours, read from the browser badge's stylesheet (`js/badge.js`).
//!
//! `cargo xtask log-fixture CHAIN PAY_TO RESOURCE_URL [SIZE]` prints, for the
//! consumers' tests, verdict documents signed now with transparency proofs
//! ([`log_fixture`]).

mod extension_words;
mod log_fixture;
mod palette;
mod python_policy;
mod types;
mod words;

use std::fmt::Write as _;

use std::process::ExitCode;

/// A generated file.
#[derive(Clone, Copy)]
enum Generated {
    /// words.js: the badge package's words and spellings, as an ES module.
    Words,
    /// verdict-types.d.ts: the TypeScript unions of the core's vocabularies.
    Types,
    /// extension-words.js: the browser extension's bounds, spellings and words, as an ES module.
    ExtensionWords,
    /// palette.rs: the image badge's marks and colours, from the browser badge's stylesheet.
    Palette,
    /// _policy.py: the Python package's `PolicyName`, from the core's policies.
    PythonPolicy,
}

/// Each generated file by the name `generate` takes.
const GENERATED: [(&str, Generated); 5] = [
    ("words", Generated::Words),
    ("types", Generated::Types),
    ("extension-words", Generated::ExtensionWords),
    ("palette", Generated::Palette),
    ("python-policy", Generated::PythonPolicy),
];

/// What a task line that is not one prints, on stderr.
const USAGE: &str = "usage: cargo xtask generate <words|types|extension-words|palette|python-policy>\n       cargo xtask log-fixture CHAIN PAY_TO RESOURCE_URL [SIZE]";

/// An ES module: a first line naming the `generate` task that wrote it,
/// then `export const NAME = <JSON>;` for each of `constants`.
fn es_module(task: &str, constants: &[(&str, serde_json::Value)]) -> String {
    let mut out = format!(
        "// Written by `cargo xtask generate {task}` (the core's and the browser crate's words): do not edit.\n"
    );
    for (name, value) in constants {
        let _ = writeln!(out, "export const {name} = {value};");
    }
    out
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
    let file = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["generate", name] => GENERATED
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, file)| file),
        _ => None,
    };
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    print!(
        "{}",
        match file {
            Generated::Words => words::module(),
            Generated::Types => types::declarations(),
            Generated::ExtensionWords => extension_words::module(),
            Generated::Palette => palette::module(),
            Generated::PythonPolicy => python_policy::module(),
        }
    );
    ExitCode::SUCCESS
}
