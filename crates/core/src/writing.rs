//! How the core writes its words: with ufmt's `uwrite!`, not `core::fmt`.
//!
//! The words of everything the browser runs (errors, the badge's label and
//! hover text, the MCP lines, times) are written once, as a [`uDisplay`];
//! the types that have one get their [`std::fmt::Display`] from it, so
//! native consumers (`?`, `thiserror`, `to_string`) read the same words.
//! The browser's wasm calls [`words`] and the crate's `text!` macro, and so
//! holds no `core::fmt` machinery (its argument interpreter, padding and
//! integer tables): 0.4 KB of gzip off the script tag's wasm, 1.3 KB off
//! the challenge reader's.

pub use ufmt::uDisplay;

/// `format!`, written by ufmt: `{}` for a [`uDisplay`] value (the core's
/// types, `str`, `String`, integers) and `{:02x}`-style hexadecimal.
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

/// Writes `n` in decimal, with leading zeros to `width` digits (`{:02}`),
/// which ufmt leaves out.
pub fn push_padded(out: &mut String, n: i64, width: usize) {
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
    fn writes_integers_and_hexadecimal_as_format_does() {
        for n in [0i64, 9, 10, -1, i64::MAX, i64::MIN, (1 << 53) - 1] {
            assert_eq!(text!("{}", n), format!("{n}"));
        }
        assert_eq!(text!("\\u{:04x}", 0x1fu32), "\\u001f");
    }
}
