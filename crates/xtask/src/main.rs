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
//!   the browser crate's words (`src/words/extension.rs`).

mod extension_words;
mod types;
mod words;

use clap::{Parser, Subcommand, ValueEnum};

/// The repository's own tasks.
#[derive(Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Prints a file the packages import, written from the Rust that holds its contents.
    Generate {
        /// Which file.
        #[arg(value_enum)]
        file: Generated,
    },
}

/// A generated file.
#[derive(Clone, Copy, ValueEnum)]
enum Generated {
    /// words.js: the badge package's words and spellings, as an ES module.
    Words,
    /// verdict-types.d.ts: the TypeScript unions of the core's vocabularies.
    Types,
    /// extension-words.js: the browser extension's bounds, spellings and words, as an ES module.
    ExtensionWords,
}

fn main() {
    let Cli {
        task: Task::Generate { file },
    } = Cli::parse();
    print!(
        "{}",
        match file {
            Generated::Words => words::module(),
            Generated::Types => types::declarations(),
            Generated::ExtensionWords => extension_words::module(),
        }
    );
}
