//! The browser badge's stylesheet (`js/common/badge.js`), the one place the
//! badge's look is written, read by the generators of that look elsewhere
//! (the image badge's palette, the extension's toolbar).

use x402_verdict_badge::look::STYLESHEET;

/// The text after `from` up to `to`, in `text` (a part of the stylesheet).
///
/// # Panics
///
/// When `text` has no `from`, or no `to` after it: the stylesheet no longer
/// says what the generators read.
pub fn between<'a>(text: &'a str, from: &str, to: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("js/common/badge.js has no {from}"))
        + from.len();
    let rest = &text[start..];
    &rest[..rest
        .find(to)
        .unwrap_or_else(|| panic!("js/common/badge.js: {from} is not closed"))]
}

/// The mark the badge shows in `state` (its `data-state`).
pub fn mark(state: &str) -> &'static str {
    between(
        STYLESHEET,
        &format!(".badge[data-state=\"{state}\"] .mark::before {{ content: \""),
        "\"",
    )
}

/// `light-dark(LIGHT, DARK)` of the custom property `--x402-verdict-NAME`'s
/// fallback.
pub fn light_dark(name: &str) -> (String, String) {
    let pair = between(
        STYLESHEET,
        &format!("var(--x402-verdict-{name}, light-dark("),
        ")",
    );
    let (light, dark) = pair
        .split_once(',')
        .unwrap_or_else(|| panic!("js/common/badge.js: {name} has no dark colour"));
    (light.trim().to_owned(), dark.trim().to_owned())
}

/// The light border colour of the badge in `state`: its state's rule's,
/// or the plain badge's when its state has no rule of its own.
pub fn border(state: &str) -> String {
    let rule = format!("\n.badge[data-state=\"{state}\"] {{\n");
    let block = if STYLESHEET.contains(&rule) {
        between(STYLESHEET, &rule, "\n}")
    } else {
        between(STYLESHEET, "\n.badge {\n", "\n}")
    };
    let line = block
        .lines()
        .find(|line| line.trim_start().starts_with("border") && line.contains("light-dark("))
        .unwrap_or_else(|| panic!("js/common/badge.js: the {state} badge has no border colour"));
    between(line, "light-dark(", ",").trim().to_owned()
}
