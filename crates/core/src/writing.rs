//! How the core writes its words: with ufmt's `uwrite!`, not `core::fmt`.
//!
//! The words of everything the browser runs (errors, the badge's label and
//! hover text, the MCP lines, times) are written once, as a [`uDisplay`];
//! the types that have one get their [`std::fmt::Display`] from it, so
//! native consumers (`?`, `thiserror`, `to_string`) read the same words.
//! The browser's wasm calls [`words`], [`line()`] and the crate's `text!` macro, and so
//! holds no `core::fmt` machinery (its argument interpreter, padding and
//! integer tables): 0.4 KB of gzip off the script tag's wasm, 1.3 KB off
//! the challenge reader's.
//!
//! Errors follow the project's one convention: an error's words say what
//! went wrong at its own level only; the error it wraps, its cause, is
//! reached apart from them ([`ErrorChain::wrapped`], and natively
//! `std::error::Error::source()`, which `error_from_words!` answers from
//! it), never written into them. [`line()`] writes an error and its causes as
//! one line, `level: cause: cause`, wherever one line is shown: the badge,
//! an evaluation's `detail`, a challenge's or listing's `reason`, the
//! Python package's `ValueError`. The native chain printer
//! (`x402_verdict_consumer::error_chain`) writes the same line through
//! `source()`.
//!
//! ```
//! use x402_verdict_core::{line, words, VerdictDocument};
//!
//! let e = VerdictDocument::parse(b"{").unwrap_err();
//! assert_eq!(words(&e), "not strict JSON");
//! assert_eq!(line(&e), "not strict JSON: expected a member name at byte 1");
//! ```

pub(crate) use ufmt::uDisplay;

/// `format!`, written by ufmt: `{}` for a [`uDisplay`] value (the core's
/// types, `str`, `String`, integers).
macro_rules! text {
    ($($arguments:tt)*) => {{
        let mut out = String::new();
        let Ok(()) = ufmt::uwrite!(out, $($arguments)*);
        out
    }};
}
pub(crate) use text;

/// `value`'s words, as a `String`.
pub fn words(value: &(impl uDisplay + ?Sized)) -> String {
    text!("{}", value)
}

/// `Display` for types whose words are their [`uDisplay`].
macro_rules! display_from_words {
    ($($name:ty),+ $(,)?) => {$(
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::writing::words(self))
            }
        }
    )+};
}
pub(crate) use display_from_words;

/// An error of the core: its words (its [`uDisplay`], what went wrong at
/// its own level) and the error it wraps, if any, which [`line()`] writes
/// after them and `source()` returns.
///
/// A value that completes the error's sentence is no cause: `payTo is
/// missing` is one error (an [`OptionError`](crate::options::OptionError)
/// holding [`OptionRule::Missing`](crate::options::OptionRule)), and so is
/// `the public key is not base64` (a [`KeysError`](crate::keys::KeysError)
/// holding a [`KeyError`](crate::ed25519::KeyError), which names no key). A
/// cause is an error whose words stand alone: `publicKey`, then `the public
/// key is not base64`; `not strict JSON`, then the strict parser's
/// [`ParseError`](crate::json::ParseError).
///
/// The type of the cause is named (`Wrapped`), not a trait object: the
/// browser's wasm writes the chain with ufmt alone, no `core::fmt`.
pub trait ErrorChain: uDisplay {
    /// The type of the error this one wraps: [`NoCause`] for an error that
    /// never wraps one.
    type Wrapped: ErrorChain + std::error::Error + 'static;

    /// The error this one wraps, if any: its cause.
    fn wrapped(&self) -> Option<&Self::Wrapped>;
}

/// The [`ErrorChain::Wrapped`] of an error that never wraps one: it has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoCause {}

impl uDisplay for NoCause {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        _: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        match *self {}
    }
}

impl ErrorChain for NoCause {
    type Wrapped = NoCause;
    fn wrapped(&self) -> Option<&NoCause> {
        match *self {}
    }
}

/// The one line of `error`: its words, then each cause's after `: `
/// (`not strict JSON: unexpected end of input at byte 1`), as
/// `x402_verdict_consumer::error_chain` writes it through `source()`. Every
/// place that shows a core error as one line writes it with this.
pub fn line(error: &impl ErrorChain) -> String {
    let mut out = String::new();
    let Ok(()) = write_line(error, &mut ufmt::Formatter::new(&mut out));
    out
}

/// Writes the one line of `error` ([`line()`]) into `f`, for the words of an
/// error that holds several (a list of invalid options).
///
/// # Errors
///
/// When `f`'s writer fails (a `String` never does).
pub(crate) fn write_line<W: ufmt::uWrite + ?Sized>(
    error: &impl ErrorChain,
    f: &mut ufmt::Formatter<'_, W>,
) -> Result<(), W::Error> {
    uDisplay::fmt(error, f)?;
    match error.wrapped() {
        Some(cause) => {
            f.write_str(": ")?;
            write_line(cause, f)
        }
        None => Ok(()),
    }
}

/// `Display` and `std::error::Error` for the core's errors, from their
/// [`ErrorChain`]: `Display` is their [`uDisplay`] (their own level's words),
/// `source()` their [`ErrorChain::wrapped`].
macro_rules! error_from_words {
    ($($name:ty),+ $(,)?) => {$(
        $crate::writing::display_from_words!($name);
        impl std::error::Error for $name {
            fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
                $crate::writing::ErrorChain::wrapped(self).map(|cause| cause as _)
            }
        }
    )+};
}
pub(crate) use error_from_words;

/// [`ErrorChain`] (wrapping [`NoCause`]), `Display` and `std::error::Error`, for
/// the core's errors that never wrap another.
macro_rules! error_without_cause {
    ($($name:ty),+ $(,)?) => {$(
        impl $crate::writing::ErrorChain for $name {
            type Wrapped = $crate::writing::NoCause;
            fn wrapped(&self) -> Option<&$crate::writing::NoCause> {
                None
            }
        }
        $crate::writing::error_from_words!($name);
    )+};
}
pub(crate) use error_without_cause;

error_from_words!(NoCause);

/// `uDisplay` for types whose words are one static text (`as_str`).
macro_rules! words_from_str {
    ($($name:ty),+ $(,)?) => {$(
        impl ufmt::uDisplay for $name {
            fn fmt<W: ufmt::uWrite + ?Sized>(
                &self,
                f: &mut ufmt::Formatter<'_, W>,
            ) -> Result<(), W::Error> {
                f.write_str(self.as_str())
            }
        }
    )+};
}
pub(crate) use words_from_str;

/// `text` in at most `max` bytes (at least 8): as it is when it fits,
/// else its start and its end around `…`, two thirds of the room for the
/// start, cut at character boundaries. For a value named in a line whose
/// reader needs to find it (a listing's resource), not to read it whole.
pub(crate) fn shortened(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    const ELLIPSIS: &str = "…";
    if text.len() <= max {
        return std::borrow::Cow::Borrowed(text);
    }
    let room = max.max(8) - ELLIPSIS.len();
    let mut head = room * 2 / 3;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - (room - head);
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    let mut out = String::with_capacity(max);
    out.push_str(&text[..head]);
    out.push_str(ELLIPSIS);
    out.push_str(&text[tail..]);
    std::borrow::Cow::Owned(out)
}

/// Writes `n` in decimal, with leading zeros to `width` digits (`{:02}`),
/// which ufmt leaves out.
pub(crate) fn push_padded(out: &mut String, n: i64, width: usize) {
    let digits = text!("{}", n);
    for _ in digits.len()..width {
        out.push('0');
    }
    out.push_str(&digits);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_to_the_width_asked() {
        let mut out = String::new();
        push_padded(&mut out, 7, 2);
        push_padded(&mut out, 2026, 4);
        push_padded(&mut out, 123, 2);
        push_padded(&mut out, 0, 3);
        assert_eq!(out, "072026123000");
    }

    #[test]
    fn a_line_writes_each_cause_once_after_its_level() {
        use crate::options::{OptionError, OptionRule};
        use crate::verdict::VerdictError;
        use std::error::Error as _;
        let parse = crate::json::parse_strict(b"[1,]").unwrap_err();
        let e = VerdictError::NotJson(parse);
        assert_eq!(words(&e), "not strict JSON");
        assert_eq!(line(&e), "not strict JSON: expected a JSON value at byte 3");
        assert_eq!(e.wrapped(), Some(&parse));
        assert_eq!(e.source().map(ToString::to_string), Some(words(&parse)));
        let e = OptionError {
            option: "chain",
            rule: OptionRule::Missing,
        };
        assert_eq!((line(&e), e.source().is_none()), (words(&e), true));
    }

    #[test]
    fn shortens_in_the_middle_at_character_boundaries() {
        assert_eq!(shortened("https://a.example/b", 80), "https://a.example/b");
        let long = format!("https://api.example.com/{}/end", "x".repeat(200));
        let short = shortened(&long, 80);
        assert!(short.len() <= 80, "{short}");
        assert!(short.starts_with("https://api.example.com/xx") && short.ends_with("xx/end"));
        assert!(short.contains('…'));
        for max in 8..40 {
            let cut = shortened("ééééééééééééééééééééééééééééééé", max);
            assert!(cut.len() <= max, "{max}: {cut}");
        }
    }

    #[test]
    fn writes_integers_and_hexadecimal_as_format_does() {
        for n in [0i64, 9, 10, -1, i64::MAX, i64::MIN, (1 << 53) - 1] {
            assert_eq!(text!("{}", n), format!("{n}"));
        }
        assert_eq!(text!("{:08x}", 0x1fu32), "0000001f");
    }
}
