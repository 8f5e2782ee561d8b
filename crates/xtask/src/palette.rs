//! `palette.rs`: the badge's look (each state's mark and light and dark
//! colours) as the core's image badge draws it, read from the one place it
//! is written, the browser badge's stylesheet (`js/badge.js`), so that the
//! image and the element look alike with no colour copied by hand. The
//! file is committed (`crates/core/src/image/palette.rs`: the core crate
//! is published alone, without `js/`); a test holds it to the stylesheet.

use std::fmt::Write as _;

use x402_verdict_badge::look::STYLESHEET;

/// Each state the image shows: its name in the core, its `data-state`, and
/// the prefix of its colours' custom properties (none: the neutral look).
const STATES: [(&str, &str, &str); 3] = [
    ("UNKNOWN", "unknown", ""),
    ("HUMAN_BACKED", "human-backed", "verified-"),
    ("REVOKED", "revoked", "revoked-"),
];

/// The value after `from` up to `to`, in the stylesheet.
fn between<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("js/badge.js has no {from}"))
        + from.len();
    let rest = &text[start..];
    &rest[..rest
        .find(to)
        .unwrap_or_else(|| panic!("js/badge.js: {from} is not closed"))]
}

/// `light-dark(LIGHT, DARK)` of the custom property `name`'s fallback.
fn light_dark(name: &str) -> (String, String) {
    let pair = between(
        STYLESHEET,
        &format!("var(--x402-verdict-{name}, light-dark("),
        ")",
    );
    let (light, dark) = pair
        .split_once(',')
        .unwrap_or_else(|| panic!("js/badge.js: {name} has no dark colour"));
    (light.trim().to_owned(), dark.trim().to_owned())
}

/// The Rust module.
pub fn module() -> String {
    let mut out = String::from(
        "//! Written by `cargo xtask generate palette` from the browser badge's\n\
         //! stylesheet (`js/badge.js`): do not edit.\n\n\
         use super::look::{Colours, Look};\n",
    );
    for (name, state, prefix) in STATES {
        let mark = between(
            STYLESHEET,
            &format!(".badge[data-state=\"{state}\"] .mark::before {{ content: \""),
            "\"",
        );
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

#[cfg(test)]
mod tests {
    /// The committed palette is the stylesheet's.
    #[test]
    fn the_committed_palette_is_the_stylesheets() {
        let committed = include_str!("../../core/src/image/palette.rs");
        assert_eq!(
            committed,
            super::module(),
            "crates/core/src/image/palette.rs is out of date: run `cargo xtask generate palette > crates/core/src/image/palette.rs`"
        );
    }
}
