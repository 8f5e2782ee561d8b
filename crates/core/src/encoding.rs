//! Base64, as every key, signature, certificate and proof is carried, and
//! the hexadecimal digits of percent encoding, keyIds and JSON's `\u00xx`.
//!
//! Encoding is the `base64` crate's. Decoding is written here, in a few
//! lines: the crate's decoder (unrolled for speed on long inputs) was 2.8 KB
//! of the badge's wasm, which decodes a few short texts per verdict. It
//! accepts exactly what the crate's `STANDARD` (canonical padding) or
//! `URL_SAFE_NO_PAD` engine accepts, with no trailing bits set, and gives
//! the same bytes: the tests compare the two on every short text over the
//! characters that matter.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

/// Decodes standard base64 with canonical padding, or base64url without
/// padding; `None` for anything else (other characters, the two alphabets
/// mixed, padding that is missing, extra or misplaced, or bits set past
/// the last byte).
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    // The alphabets the text shows: 1 for standard (`+`, `/`), 2 for
    // base64url (`-`, `_`).
    let mut alphabets = 0;
    let mut padding = 0;
    let mut bytes = Vec::new();
    let (mut bits, mut held) = (0u32, 0u32);
    for &c in text.as_bytes() {
        let value = match c {
            // Padding ends the text.
            b'=' => {
                padding += 1;
                continue;
            }
            _ if padding > 0 => return None,
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'/' => {
                alphabets |= 1;
                62 + u8::from(c == b'/')
            }
            b'-' | b'_' => {
                alphabets |= 2;
                62 + u8::from(c == b'_')
            }
            _ => return None,
        };
        bits = bits << 6 | u32::from(value);
        held += 6;
        if held >= 8 {
            held -= 8;
            bytes.push((bits >> held) as u8);
        }
    }
    let length = text.len();
    let fits = match (alphabets, padding) {
        // Letters and digits alone, unpadded: either alphabet.
        (0, 0) => true,
        // Standard base64: padded to a multiple of 4.
        (0 | 1, _) => length % 4 == 0,
        // base64url: never padded.
        (2, 0) => true,
        // Padded base64url, or both alphabets.
        _ => false,
    };
    // At most two `=`, never after a lone character, and no bits set past
    // the last byte.
    (fits && padding <= 2 && (length - padding) % 4 != 1 && bits & ((1 << held) - 1) == 0)
        .then_some(bytes)
}

/// Appends `byte` to `out` as two hexadecimal digits, upper case (as
/// percent encoding writes them) or lower case (keyIds, JSON's `\u00xx`):
/// no formatting code in the wasm.
pub(crate) fn push_hex(out: &mut String, byte: u8, upper: bool) {
    let digits = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    out.push(char::from(digits[usize::from(byte >> 4)]));
    out.push(char::from(digits[usize::from(byte & 15)]));
}

/// Standard base64 with padding.
pub fn encode_base64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    /// The `base64` crate's answer: standard with canonical padding, else
    /// base64url without padding.
    fn library(text: &str) -> Option<Vec<u8>> {
        STANDARD
            .decode(text)
            .or_else(|_| URL_SAFE_NO_PAD.decode(text))
            .ok()
    }

    /// Calls `check` with every text of `lengths` characters from
    /// `chars`, one at a time; how many there were.
    fn every_text(
        chars: &[u8],
        lengths: std::ops::RangeInclusive<u32>,
        check: impl Fn(&str),
    ) -> usize {
        let mut count = 0;
        let mut text = String::new();
        for length in lengths {
            for mut n in 0..chars.len().pow(length) {
                text.clear();
                for _ in 0..length {
                    text.push(char::from(chars[n % chars.len()]));
                    n /= chars.len();
                }
                check(&text);
                count += 1;
            }
        }
        count
    }

    #[test]
    fn decodes_as_the_base64_crate_on_every_short_text() {
        // Each class of character the rules tell apart: letters of both
        // cases, digits, each alphabet's two, padding and a stranger; with
        // values whose low bits are set (`B`, `h`) and clear (`A`, `Q`, `g`,
        // `w`). Then, past one quad, fewer of them.
        let same = |text: &str| assert_eq!(decode_base64(text), library(text), "{text:?}");
        let short = every_text(b"AQgwBh09+/-_=!", 0..=5, same);
        let long = every_text(b"Ah+_=/", 6..=8, same);
        assert_eq!(short + long, 2_585_403);
    }

    #[test]
    fn writes_hexadecimal_as_format_does() {
        for byte in 0..=255u8 {
            let (mut lower, mut upper) = (String::new(), String::new());
            push_hex(&mut lower, byte, false);
            push_hex(&mut upper, byte, true);
            assert_eq!(
                (lower, upper),
                (format!("{byte:02x}"), format!("{byte:02X}"))
            );
        }
    }

    #[test]
    fn reads_keys_and_signatures_in_both_alphabets() {
        for length in [0, 1, 2, 3, 32, 33, 64, 116, 164] {
            let bytes: Vec<u8> = (0..length).map(|i| (i * 37 + 251) as u8).collect();
            assert_eq!(decode_base64(&encode_base64(&bytes)), Some(bytes.clone()));
            let url = URL_SAFE_NO_PAD.encode(&bytes);
            assert_eq!(decode_base64(&url), Some(bytes));
        }
        assert_eq!(decode_base64("Zm9v\n"), None);
        assert_eq!(decode_base64("Zg"), Some(b"f".to_vec()));
        assert_eq!(decode_base64("Zh=="), None, "bits past the last byte");
    }
}
