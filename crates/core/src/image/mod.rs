//! The image badge: an SVG of the badge's state for pages that run no
//! script (READMEs, package pages, marketplaces), which carries the signed
//! verdict it was drawn from, so that anyone holding the file can check it.
//!
//! Its rules, shared by the service that draws it and the checker that
//! reads it: the picture is a pure function of what it carries ([`picture`]:
//! the document evaluated at the time it was drawn, under the keys given,
//! strictly); reading it back ([`read`]) draws the picture again from the
//! verdict it carries and takes the verdict only when the two are the same
//! file, byte for byte. So an edited picture, or a verdict moved into
//! another picture (a "verified" picture carrying a revoked verdict), is
//! refused. The words are the badge's ([`Evaluation::badge_label`],
//! [`Evaluation::badge_hover`], [`accessible_name`](crate::accessible_name)),
//! and the colours and marks the browser badge's stylesheet's
//! ([`Look`]). The SVG holds no script, no reference to anything outside
//! it, no `foreignObject` and no event attribute.
//!
//! ```
//! use x402_verdict_core::image::{picture, read, Carried, Style};
//! use x402_verdict_core::{Timestamp, TrustedKeys};
//!
//! // No verdict: the "unknown" picture, which carries nothing.
//! let svg = picture(None, &TrustedKeys::from_keys([]), Style::Flat);
//! assert!(svg.starts_with("<svg") && svg.contains(">? unknown</text>"));
//! assert_eq!(read(svg.as_bytes(), &TrustedKeys::from_keys([])), Ok(None));
//! ```

mod carry;
mod layout;
mod look;
// Written by `cargo xtask generate`, as it writes it.
#[rustfmt::skip]
mod palette;

pub use carry::{Carried, ImageError, IMAGE_NAMESPACE, MAX_IMAGE_BYTES};
pub use layout::{escape_markup, Style, IMAGE_LABEL};
pub use look::{Colours, Look};

use crate::endpoint::Endpoint;
use crate::evaluate::{Evaluation, Lookup, Outcome, Reason};
use crate::keys::TrustedKeys;
pub use crate::request::IMAGE_PATH;
use crate::request::{BaseUrl, VERDICT_PATH};
use crate::response::Response;
use crate::verdict::VerdictDocument;
use crate::writing::line;

/// Where a service answers shields.io's endpoint badge, under its base URL.
pub const SHIELDS_PATH: &str = "/v0/badge.json";
/// Where a service answers the page an image badge links to, under its base URL.
pub const ENDPOINT_PAGE_PATH: &str = "/v0/endpoint";
/// The name of the image's style parameter.
pub const STYLE_PARAMETER: &str = "style";

/// `{base}{path}?chain=…&payTo=…&resourceUrl=…`: the URL of one of a
/// service's routes about `endpoint` ([`IMAGE_PATH`], [`SHIELDS_PATH`],
/// [`ENDPOINT_PAGE_PATH`]), its query as the verdict's.
pub fn endpoint_url(base: &BaseUrl, path: &str, endpoint: &Endpoint) -> String {
    let verdict = base.verdict_url(endpoint);
    // A base URL has no '?': the first one starts the query, after the route.
    let query = verdict.find('?').unwrap_or(verdict.len());
    let mut url = verdict[..query - VERDICT_PATH.len()].to_owned();
    url.push_str(path);
    url.push_str(&verdict[query..]);
    url
}

/// The URL of shields.io's endpoint badge of `endpoint`, which reads
/// [`SHIELDS_PATH`] at `base`: `https://img.shields.io/endpoint?url=…`.
pub fn shields_url(base: &BaseUrl, endpoint: &Endpoint) -> String {
    let json = endpoint_url(base, SHIELDS_PATH, endpoint);
    let mut url = String::from("https://img.shields.io/endpoint?url=");
    crate::request::encode_component(&mut url, &json);
    url
}

/// What `carried`'s picture shows: its document evaluated, strictly under
/// `keys`, at the time it was drawn; with nothing carried, no signal.
pub fn evaluation(carried: Option<&Carried>, keys: &TrustedKeys) -> Evaluation {
    let Some(carried) = carried else {
        return Evaluation::without_verdict(Outcome::NoSignal, Reason::NotListed, None);
    };
    let malformed =
        |detail| Evaluation::without_verdict(Outcome::NoResponse, Reason::Malformed, Some(detail));
    let document = match VerdictDocument::parse(carried.document.as_bytes()) {
        Ok(document) => document,
        Err(e) => return malformed(line(&e)),
    };
    let v = &document.verdict;
    match Endpoint::new(&v.chain, &v.pay_to, &v.resource_url) {
        Ok(endpoint) => Lookup {
            endpoint,
            keys: keys.clone(),
            strict: true,
        }
        .evaluate(
            Response::Http {
                status: 200,
                body: carried.document.as_bytes(),
            },
            carried.at,
        ),
        Err(e) => malformed(line(&e)),
    }
}

/// The image badge of what it carries, in `style`: its [`evaluation`]
/// drawn, with the document and time in its `<metadata>`.
pub fn picture(carried: Option<&Carried>, keys: &TrustedKeys, style: Style) -> String {
    let metadata = carried.map(Carried::metadata).unwrap_or_default();
    layout::draw(&evaluation(carried, keys), style, &metadata)
}

/// The image badge of a result that carries no verdict (a request that
/// names no endpoint: [`Evaluation::invalid_input`]), in `style`.
pub fn picture_without_verdict(evaluation: &Evaluation, style: Style) -> String {
    layout::draw(evaluation, style, "")
}

/// The verdict an image badge carries (`None`: it carries none), taken
/// only when its picture is the one that verdict draws under `keys`, in one
/// of the styles. The verdict itself is then evaluated as any other, at
/// the reader's time.
///
/// # Errors
///
/// [`ImageError`]: the file is too large or not UTF-8, its metadata cannot
/// be read, or its picture disagrees with its verdict.
pub fn read(svg: &[u8], keys: &TrustedKeys) -> Result<Option<Carried>, ImageError> {
    let Some(carried) = Carried::read(svg)? else {
        return Ok(None);
    };
    let drawn = |style| picture(Some(&carried), keys, style).into_bytes() == svg;
    if Style::ALL.into_iter().any(drawn) {
        Ok(Some(carried))
    } else {
        Err(ImageError::Disagrees)
    }
}
