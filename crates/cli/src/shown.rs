//! Text from arguments, files and servers, as the command line prints it: a
//! terminal can never be tricked by it.
//!
//! Every control and format character (the core's
//! [`x402_verdict_core::is_hidden`]: ESC sequences, bidi overrides,
//! zero-width spaces) is written as its Rust escape (`\u{1b}`), so what is
//! printed reads as what was received.

use std::fmt;

use x402_verdict_core::is_hidden;

/// `text`, printed with its hidden characters escaped.
pub struct Shown<'a>(pub &'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_hidden(c)) {
            f.write_str(&rest[..at])?;
            write!(f, "{}", c.escape_unicode())?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::Shown;

    #[test]
    fn escapes_control_and_format_characters_only() {
        let shown = Shown("GET /\u{1b}[2J\u{1b}]0;pwned\u{7} é \u{202e}x\u{200b}\n").to_string();
        assert_eq!(
            shown,
            r"GET /\u{1b}[2J\u{1b}]0;pwned\u{7} é \u{202e}x\u{200b}\u{a}"
        );
        assert_eq!(Shown("plain text").to_string(), "plain text");
    }
}
