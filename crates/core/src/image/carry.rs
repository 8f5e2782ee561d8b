//! The signed verdict an image badge carries, in its `<metadata>`: the
//! document exactly as the service's verdict route answers it (escaped as
//! XML character data) and the time the picture was drawn at, marked with
//! this protocol's namespace; and how it is read back.
//!
//! The element is `<metadata data-x402-verdict="NAMESPACE" data-at="TIME">`
//! with the document as its text, not a child element of a namespace of
//! its own (as C2PA's manifests are): SVG sanitizers (DOMPurify's SVG
//! profile) remove unknown elements and namespaced attributes, and keep
//! `<metadata>`, its text and `data-` attributes, so the verdict survives
//! wherever the image is cleaned before it is shown.

use crate::time::Timestamp;
use crate::writing::{error_without_cause, text, words_from_str};

use super::layout::escape_text;

/// The namespace of what an image badge carries, the value of its
/// `<metadata>`'s `data-x402-verdict` (a URN: nothing to fetch).
pub const IMAGE_NAMESPACE: &str = "urn:x402-verdict:image:v1";

/// The start of the `<metadata>` element, up to the time's value.
const OPEN: &str = "<metadata data-x402-verdict=\"urn:x402-verdict:image:v1\" data-at=\"";
/// The end of the `<metadata>` element.
const CLOSE: &str = "</metadata>";

/// The largest image badge read: the reference service's are at most
/// this size (a verdict, its signature and key certificates included).
pub const MAX_IMAGE_BYTES: usize = 4096;

/// What an image badge carries: a verdict document and the time its
/// picture was drawn at (the time the document was evaluated at).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Carried {
    /// The document, byte for byte as the verdict route answered it.
    pub document: String,
    /// When the picture was drawn.
    pub at: Timestamp,
}

impl Carried {
    /// The `<metadata>` element that carries it.
    pub(super) fn metadata(&self) -> String {
        text!(
            "{}{}\">{}{}",
            OPEN,
            self.at.to_rfc3339(),
            escape_text(&self.document),
            CLOSE
        )
    }

    /// What `svg` carries: `None` when it has no `<metadata>` element.
    ///
    /// # Errors
    ///
    /// The file is too large, not UTF-8, or its `<metadata>` is not one
    /// this protocol writes.
    pub(super) fn read(svg: &[u8]) -> Result<Option<Carried>, ImageError> {
        if svg.len() > MAX_IMAGE_BYTES {
            return Err(ImageError::TooLarge);
        }
        let svg = std::str::from_utf8(svg).map_err(|_| ImageError::NotUtf8)?;
        let Some(start) = svg.find("<metadata") else {
            return Ok(None);
        };
        let rest = svg[start..]
            .strip_prefix(OPEN)
            .ok_or(ImageError::Unreadable)?;
        let (at, rest) = rest.split_once("\">").ok_or(ImageError::Unreadable)?;
        let (escaped, _) = rest.split_once(CLOSE).ok_or(ImageError::Unreadable)?;
        Ok(Some(Carried {
            document: unescape(escaped).ok_or(ImageError::Unreadable)?,
            at: Timestamp::parse_rfc3339(at).ok_or(ImageError::Unreadable)?,
        }))
    }
}

/// XML character data as [`escape_text`] writes it, back to its text; `None`
/// for markup or a reference it never writes.
fn unescape(data: &str) -> Option<String> {
    let mut out = String::with_capacity(data.len());
    let mut rest = data;
    while let Some(i) = rest.find(['&', '<']) {
        out.push_str(&rest[..i]);
        let (c, len) = [
            ("&amp;", '&'),
            ("&lt;", '<'),
            ("&gt;", '>'),
            ("&quot;", '"'),
        ]
        .into_iter()
        .find(|(reference, _)| rest[i..].starts_with(reference))
        .map(|(reference, c)| (c, reference.len()))?;
        out.push(c);
        rest = &rest[i + len..];
    }
    out.push_str(rest);
    Some(out)
}

/// Why an image badge's verdict cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageError {
    /// It is larger than [`MAX_IMAGE_BYTES`].
    TooLarge,
    /// It is not UTF-8.
    NotUtf8,
    /// Its `<metadata>` is not the element this protocol writes.
    Unreadable,
    /// Its picture is not the one its verdict draws (an edited picture, or
    /// a verdict put in another's picture).
    Disagrees,
}

impl ImageError {
    /// What is wrong, as a sentence's end: callers name the image.
    pub fn as_str(self) -> &'static str {
        match self {
            ImageError::TooLarge => "is larger than 4096 bytes",
            ImageError::NotUtf8 => "is not UTF-8",
            ImageError::Unreadable => "carries a verdict that cannot be read",
            ImageError::Disagrees => "shows another picture than the verdict it carries",
        }
    }
}

words_from_str!(ImageError);
error_without_cause!(ImageError);
