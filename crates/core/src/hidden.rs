//! The characters no value may hold: those a terminal or a page does not show
//! as themselves.
//!
//! Control characters (Unicode category Cc: C0, DEL, C1, which carry
//! terminal escape sequences) and format characters (category Cf: the bidi
//! overrides and isolates that reorder what follows, the zero-width spaces
//! and joiners, the byte-order mark, tags). A value holding one could read as
//! other text than it is, so the endpoint values, challenge fields and
//! operator names refuse them ([`crate::endpoint::check_field`]), and the
//! command line escapes them in whatever it echoes.

/// Unicode category Cf (Unicode 17.0), as inclusive ranges of code points.
const FORMAT: [(u32, u32); 21] = [
    (0x00AD, 0x00AD),   // soft hyphen
    (0x0600, 0x0605),   // Arabic number signs
    (0x061C, 0x061C),   // Arabic letter mark
    (0x06DD, 0x06DD),   // Arabic end of ayah
    (0x070F, 0x070F),   // Syriac abbreviation mark
    (0x0890, 0x0891),   // Arabic pound and piastre marks above
    (0x08E2, 0x08E2),   // Arabic disputed end of ayah
    (0x180E, 0x180E),   // Mongolian vowel separator
    (0x200B, 0x200F),   // zero-width space, non-joiner, joiner; LRM, RLM
    (0x202A, 0x202E),   // bidi embeddings and overrides
    (0x2060, 0x2064),   // word joiner, invisible operators
    (0x2066, 0x206F),   // bidi isolates, deprecated format characters
    (0xFEFF, 0xFEFF),   // zero-width no-break space (byte-order mark)
    (0xFFF9, 0xFFFB),   // interlinear annotation
    (0x110BD, 0x110BD), // Kaithi number sign
    (0x110CD, 0x110CD), // Kaithi number sign above
    (0x13430, 0x1343F), // Egyptian hieroglyph format controls
    (0x1BCA0, 0x1BCA3), // shorthand format controls
    (0x1D173, 0x1D17A), // musical symbol beam and slur controls
    (0xE0001, 0xE0001), // language tag
    (0xE0020, 0xE007F), // tag characters
];

/// Whether `c` is a format character (Unicode category Cf): invisible, yet
/// it changes how the text around it is shown.
pub(crate) fn is_format(c: char) -> bool {
    let c = u32::from(c);
    FORMAT.iter().any(|&(first, last)| first <= c && c <= last)
}

/// Whether `c` is a control (Cc) or format (Cf) character: one no value may
/// hold, and the command line never prints raw.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || is_format(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_general_category::{get_general_category, GeneralCategory};

    #[test]
    fn format_is_exactly_category_cf() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let cf = get_general_category(c) == GeneralCategory::Format;
            assert_eq!(is_format(c), cf, "U+{:04X}", u32::from(c));
        }
    }

    #[test]
    fn hidden_is_cc_or_cf() {
        for c in [
            '\u{1b}', '\u{7f}', '\u{9b}', '\u{202e}', '\u{2066}', '\u{200b}', '\u{feff}',
        ] {
            assert!(is_hidden(c), "U+{:04X}", u32::from(c));
        }
        for c in ['a', ' ', 'é', '\u{3000}', '😀'] {
            assert!(!is_hidden(c), "U+{:04X}", u32::from(c));
        }
    }
}
