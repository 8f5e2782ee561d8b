//! `palette.rs`: the badge's look (each state's mark and light and dark
//! colours) as the core's image badge draws it, read from the one place it
//! is written, the browser badge's stylesheet (`js/common/badge.js`), so that the
//! image and the element look alike with no colour copied by hand. The
//! file is committed (`crates/core/src/image/palette.rs`: the core crate
//! is published alone, without `js/`).

use std::fmt::Write as _;

use crate::stylesheet::{light_dark, mark};

/// Each state the image shows: its name in the core, its `data-state`, and
/// the prefix of its colours' custom properties (none: the neutral look).
const STATES: [(&str, &str, &str); 3] = [
    ("UNKNOWN", "unknown", ""),
    ("HUMAN_BACKED", "human-backed", "verified-"),
    ("REVOKED", "revoked", "revoked-"),
];

/// The Rust module.
pub fn module() -> String {
    let mut out = String::from(
        "//! Written by `cargo xtask generate` from the browser badge's\n\
         //! stylesheet (`js/common/badge.js`): do not edit.\n\n\
         use super::look::{Colours, Look};\n",
    );
    for (name, state, prefix) in STATES {
        let mark = mark(state);
        let [border, background, color] =
            ["border", "background", "color"].map(|part| light_dark(&format!("{prefix}{part}")));
        let colours = |pick: fn(&(String, String)) -> &String| {
            format!(
                "Colours {{ border: \"{}\", background: \"{}\", text: \"{}\" }}",
                pick(&border),
                pick(&background),
                pick(&color)
            )
        };
        let _ = write!(
            out,
            "\n/// The `{state}` look.\npub const {name}: Look = Look {{ mark: \"{mark}\", light: {}, dark: {} }};\n",
            colours(|c| &c.0),
            colours(|c| &c.1),
        );
    }
    out
}
