//! `x402-verdict snippet`: every way a seller can show the badge of one
//! endpoint, ready to paste: the script tag, the element, the image badge
//! in Markdown and in HTML (linked to its page), and shields.io's endpoint
//! badge. Each URL is encoded for where it goes.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use x402_verdict_core::ed25519_dalek::VerifyingKey;
use x402_verdict_core::image::{endpoint_url, shields_url, ENDPOINT_PAGE_PATH, IMAGE_PATH};
use x402_verdict_core::{encode_base64, BaseUrl, Endpoint, EndpointError};

use crate::lookup::{parse_key, EndpointArgs};
use crate::out::say;

/// Where a site that copies the package serves it (the README's snippets').
const PACKAGE_PATH: &str = "/x402-verdict-badge/embed.js";

/// The image's text alternative.
const ALT: &str = "x402 verdict";

/// Options of `snippet`.
#[derive(clap::Args, Debug)]
pub struct SnippetArgs {
    /// The service and the endpoint.
    #[command(flatten)]
    pub endpoint: EndpointArgs,
    /// The service's root key (the `publicKey` of its `keygen --root`),
    /// pinned by the script tag and the element (strict), which then keep
    /// reading verified across its key rotations; repeat for several.
    #[arg(long = "root-key", value_parser = parse_key)]
    pub root_keys: Vec<VerifyingKey>,
    /// A signing key of the service, pinned by the script tag and the
    /// element (strict) until it rotates; repeat for several.
    #[arg(long = "public-key", value_parser = parse_key)]
    pub public_keys: Vec<VerifyingKey>,
}

/// What a Markdown link destination may not hold bare: besides what
/// [`endpoint_url`] encodes, parentheses (which would end it) and `<`, `>`.
const MARKDOWN: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b'!')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'%')
    .remove(b'/')
    .remove(b':')
    .remove(b'?')
    .remove(b'=')
    .remove(b'&')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'@')
    .remove(b'#');

/// `text` as a double-quoted HTML attribute's value.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The snippets, in the order printed: a title and its text; the script
/// tag and the element pin `roots` (root keys) and `keys` (signing keys),
/// strictly when they pin any.
pub fn snippets(
    base: &BaseUrl,
    endpoint: &Endpoint,
    roots: &[VerifyingKey],
    keys: &[VerifyingKey],
) -> Vec<(&'static str, String)> {
    let listed = |keys: &[VerifyingKey]| -> Vec<String> {
        keys.iter().map(|k| encode_base64(k.as_bytes())).collect()
    };
    let (roots, keys) = (listed(roots), listed(keys));
    let (chain, pay_to, resource) = (
        attribute(endpoint.chain()),
        attribute(endpoint.pay_to()),
        attribute(endpoint.resource_url()),
    );
    let base_attr = attribute(&base.to_string());
    // Each kind of key pinned, then strict mode when any is.
    let trust = |prefix: &str| {
        let mut attributes = String::new();
        for (name, listed) in [("root-key", &roots), ("public-key", &keys)] {
            if !listed.is_empty() {
                attributes += &format!(" {prefix}{name}=\"{}\"", listed.join(","));
            }
        }
        if !attributes.is_empty() {
            attributes += &format!(" {prefix}strict");
        }
        attributes
    };
    let image = endpoint_url(base, IMAGE_PATH, endpoint);
    let page = endpoint_url(base, ENDPOINT_PAGE_PATH, endpoint);
    let markdown = |url: &str| utf8_percent_encode(url, MARKDOWN).to_string();
    vec![
        (
            "Script tag (the package copied to your site)",
            format!(
                "<span data-x402-verdict data-base-url=\"{base_attr}\" data-chain=\"{chain}\" data-pay-to=\"{pay_to}\" data-resource-url=\"{resource}\"{}></span>\n<script src=\"{PACKAGE_PATH}\"></script>",
                trust("data-")
            ),
        ),
        (
            "Element (with the package loaded)",
            format!(
                "<x402-verdict-badge base-url=\"{base_attr}\" chain=\"{chain}\" pay-to=\"{pay_to}\" resource-url=\"{resource}\"{}></x402-verdict-badge>",
                trust("")
            ),
        ),
        (
            "Markdown (README, package page)",
            format!("[![{ALT}]({})]({})", markdown(&image), markdown(&page)),
        ),
        (
            "HTML image (no script)",
            format!(
                "<a href=\"{}\"><img src=\"{}\" alt=\"{ALT}\" height=\"20\"></a>",
                attribute(&page),
                attribute(&image)
            ),
        ),
        (
            "Shields.io endpoint badge",
            shields_url(base, endpoint),
        ),
    ]
}

/// Prints the snippets, each under its title.
///
/// # Errors
///
/// The endpoint breaks the protocol's rules.
pub fn snippet(args: SnippetArgs) -> Result<(), EndpointError> {
    let endpoint = args.endpoint.endpoint()?;
    let (roots, keys) = (&args.root_keys, &args.public_keys);
    for (i, (title, text)) in snippets(&args.endpoint.base_url, &endpoint, roots, keys)
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            say!("");
        }
        say!("{title}:");
        say!("{text}");
    }
    Ok(())
}
