//! What the buyer's browser extension decides and says (`pkg-extension/`):
//! which state its toolbar shows for the payment a tab was asked, the
//! option that state stands for and the title it carries, who each option
//! pays, whether a badge the page draws is about an endpoint the page asks
//! payment for, how a v1 paywall page's terms are read, its bounds and
//! spellings. The extension's JavaScript only observes, asks and draws;
//! `cargo xtask generate extension-words` writes these bounds and
//! spellings into it, beside the words of its toolbar, popup and settings,
//! which are the browser crate's (`x402_verdict_badge::words::extension`).

use crate::challenge::{Challenge, ChallengeEndpoints, MAX_CHALLENGE_BYTES};
use crate::endpoint::{Endpoint, EndpointError};
use crate::evaluate::State;
use crate::json::{parse_strict, Object, Value};
use crate::network::NETWORK_ALIASES;
use crate::options::{LookupOptions, OptionField, OptionsError};
use crate::resource::{normalize, path_span};
use crate::seller::option_label;
use crate::writing::text;

/// The most challenges a tab's record keeps: the last ones met.
pub const MAX_CHALLENGES_KEPT: usize = 20;

/// The most badges of a page the extension reads (the first ones, in
/// document order).
pub const MAX_PAGE_BADGES: usize = 32;

/// The most text of a page's inline scripts read for a v1 paywall's terms,
/// in UTF-16 code units: the terms are at most a challenge's bytes, the rest
/// of the paywall's configuration (its chain table) about as much again.
pub const MAX_PAYWALL_TEXT: usize = 4 * MAX_CHALLENGE_BYTES;

/// The elements that are the page's own badges: the script tag's and the
/// custom element (the badge package's two ways onto a page).
pub const PAGE_BADGE_SELECTOR: &str = "[data-x402-verdict],x402-verdict-badge";

/// The prefix of a badge's attributes, for each selector's element in turn:
/// `data-` for the script tag's, none for the element.
pub const PAGE_BADGE_PREFIXES: [(&str, &str); 2] =
    [("[data-x402-verdict]", "data-"), ("x402-verdict-badge", "")];

/// The page's image badges: an `<img>` whose URL asks a service's image
/// route ([`IMAGE_PATH`](crate::IMAGE_PATH)), read by [`image_badge_endpoint`].
pub const PAGE_IMAGE_SELECTOR: &str = "img[src*=\"/v0/badge.svg?\"]";

/// The endpoint an image badge's URL names, read from its query as the
/// service reads it (`chain`, `payTo`, `resourceUrl`, each once,
/// form-decoded), with no request.
///
/// # Errors
///
/// The URL is not of the image route, or a value is missing, given twice,
/// not UTF-8 once decoded, or breaks the endpoint's rules: an
/// [`EndpointError`] naming the field (a missing one `is empty`).
pub fn image_badge_endpoint(url: &str) -> Result<Endpoint, EndpointError> {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query = query.split('#').next().unwrap_or_default();
    let on_route = path.ends_with(crate::IMAGE_PATH);
    let value = |name: &'static str| {
        let mut values = query.split('&').filter_map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (key == name).then_some(value)
        });
        let decoded = match (values.next(), values.next()) {
            (Some(v), None) if on_route => {
                percent_encoding::percent_decode_str(&v.replace('+', " "))
                    .decode_utf8()
                    .map(|v| v.into_owned())
                    .ok()
            }
            _ => None,
        };
        decoded.unwrap_or_default()
    };
    Endpoint::new(&value("chain"), &value("payTo"), &value("resourceUrl"))
}

/// The name of the `PAYMENT-REQUIRED` response header, lowercased as
/// browsers hand headers to extensions.
pub const PAYMENT_REQUIRED_HEADER: &str = "payment-required";

/// The status of a response that asks payment.
pub const PAYMENT_REQUIRED_STATUS: u16 = 402;

/// What the toolbar shows for a challenge: the badge's state its mark and
/// colour are drawn for (`checking` while an option waits for its result),
/// and the option that state stands for, by its place in the challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toolbar {
    /// The state whose mark and colour are shown; `None` while checking.
    pub state: Option<State>,
    /// The option whose result the title gives.
    pub option: usize,
}

/// The toolbar for a challenge whose options have these states (`None`:
/// not known yet): revoked (`✕`) when any option is revoked, standing for
/// the first revoked; else checking while any waits, standing for the first
/// that waits; human-backed (`✓`) when every option is, standing for the
/// first; unknown (`?`) otherwise, standing for the first that is not
/// human-backed. A challenge with no options (one that could not be read)
/// reads unknown.
pub fn toolbar(states: &[Option<State>]) -> Toolbar {
    let first = |wanted: Option<State>| states.iter().position(|s| *s == wanted);
    if let Some(option) = first(Some(State::Revoked)) {
        return Toolbar {
            state: Some(State::Revoked),
            option,
        };
    }
    if let Some(option) = first(None) {
        return Toolbar {
            state: None,
            option,
        };
    }
    match states.iter().position(|s| *s != Some(State::HumanBacked)) {
        Some(option) => Toolbar {
            state: Some(State::Unknown),
            option,
        },
        None if states.is_empty() => Toolbar {
            state: Some(State::Unknown),
            option: 0,
        },
        None => Toolbar {
            state: Some(State::HumanBacked),
            option: 0,
        },
    }
}

/// The toolbar's title: `line` (the `lookup_verdict` text line of the
/// option the toolbar stands for, or why the challenge could not be read),
/// prefixed by the count where the challenge accepts several options
/// (`2 options: Verification: …`).
pub fn toolbar_title(options: usize, line: &str) -> String {
    if options > 1 {
        text!("{} options: {}", options, line)
    } else {
        line.to_owned()
    }
}

/// An address shortened in the middle for a narrow line (`0x2096…287C`):
/// its first six and last four characters around an ellipsis, or the
/// whole address when that is not shorter.
pub(crate) fn short_address(address: &str) -> String {
    const HEAD: usize = 6;
    const TAIL: usize = 4;
    let count = address.chars().count();
    if count <= HEAD + TAIL + 1 {
        return address.to_owned();
    }
    let head: String = address.chars().take(HEAD).collect();
    let tail: String = address.chars().skip(count - TAIL).collect();
    text!("{}…{}", head, tail)
}

/// A network's name for a buyer: the x402 v1 name of a well-known
/// network's CAIP-2 id (`eip155:8453` is `base`), else the value itself.
pub(crate) fn network_name(chain: &str) -> &str {
    NETWORK_ALIASES
        .iter()
        .find(|(_, caip2)| *caip2 == chain)
        .map_or(chain, |(v1, _)| v1)
}

/// The host a resource URL names (`api.example.com`, its port kept when
/// not the default), from its normalized form; a value that is not an
/// `http` or `https` URL, as it is.
pub fn resource_host(resource_url: &str) -> String {
    let normalized = normalize(resource_url);
    match (path_span(&normalized), normalized.find("://")) {
        (Some((path, _)), Some(scheme)) => {
            let authority = &normalized[scheme + 3..path];
            // A userinfo (`user@`) is no part of the host a buyer reads.
            authority.rsplit('@').next().unwrap_or(authority).to_owned()
        }
        _ => normalized.into_owned(),
    }
}

/// Who an option pays, in a buyer's words: `to 0x2096…287C on base`, the
/// seller page's option label with the address shortened and the network
/// named.
pub fn payee_label(endpoint: &Endpoint) -> String {
    option_label(
        network_name(endpoint.chain()),
        &short_address(endpoint.pay_to()),
    )
}

/// Which of the endpoints a tab was asked payment for a badge of its page
/// is about: the first one that is the badge's endpoint (the endpoint
/// binding, [`Endpoint::is`]), or `None`: the badge is not about an
/// endpoint the page asks payment for.
pub fn badge_about<'a>(
    badge: &Endpoint,
    asked: impl IntoIterator<Item = &'a Endpoint>,
) -> Option<usize> {
    asked
        .into_iter()
        .position(|e| e.is(badge.chain(), badge.pay_to(), badge.resource_url()))
}

/// The endpoints of a v1 paywall page, the top document of a 402 that
/// carried no `PAYMENT-REQUIRED` header: the `paymentRequirements` of its
/// `window.x402` configuration (as `x402-express` writes it), found in
/// `scripts`, the text of its inline scripts (at most
/// [`MAX_PAYWALL_TEXT`]), read as an x402 v1 challenge's `accepts`.
pub fn paywall_endpoints(scripts: &str) -> ChallengeEndpoints {
    let none = |reason: &str| ChallengeEndpoints {
        endpoints: Vec::new(),
        reason: Some(reason.to_owned()),
    };
    let Some(terms) = scripts
        .find("window.x402")
        .and_then(|at| json_after(&scripts[at..], "paymentRequirements:"))
    else {
        return none(PAYWALL_UNREAD);
    };
    let accepts = match parse_strict(terms.as_bytes()) {
        Ok(accepts @ Value::Array(_)) => accepts,
        _ => return none(PAYWALL_UNREAD),
    };
    let mut challenge = Object::new();
    challenge.insert("x402Version", Value::Integer(1));
    challenge.insert("accepts", accepts);
    ChallengeEndpoints::from(Challenge::from_value(&Value::Object(challenge)).map(Some))
}

/// The JSON array or object that follows `name` in `text` (spaces
/// between), up to its matching end, strings and their escapes skipped;
/// none past [`MAX_CHALLENGE_BYTES`].
fn json_after<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let start = text.find(name)? + name.len();
    let value = text[start..].trim_start();
    let bytes = value.as_bytes();
    if !matches!(bytes.first(), Some(b'[' | b'{')) {
        return None;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (at, byte) in bytes.iter().enumerate().take(MAX_CHALLENGE_BYTES) {
        match (in_string, byte) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') | (false, b'"') => in_string = !in_string,
            (false, b'[' | b'{') => depth += 1,
            (false, b']' | b'}') => {
                depth -= 1;
                if depth == 0 {
                    return Some(&value[..=at]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The `storage.local` key of the settings (and of the policy's, in
/// `storage.managed`): an object with these members.
pub const SETTINGS_KEY: &str = "settings";

/// The settings' members: the lookup options of the same names.
pub const SETTINGS_MEMBERS: [&str; 4] = ["baseUrl", "publicKey", "rootKey", "strict"];

/// Whether settings, each member read by `read`, configure lookups as the
/// badge's options of the same names would: the options error that names
/// what is wrong, else nothing. Only the settings are checked (the
/// endpoint's options are given values every rule takes).
///
/// # Errors
///
/// The badge's error for these options.
pub fn check_settings(
    read: &mut dyn FnMut(&'static str) -> OptionField,
) -> Result<(), OptionsError> {
    LookupOptions::from_fields(&mut |name| match name {
        "chain" | "payTo" | "resourceUrl" => Ok(Some(Value::String(name.to_owned()))),
        name if SETTINGS_MEMBERS.contains(&name) => read(name),
        _ => Ok(None),
    })
    .map(|_| ())
}

/// Why a top document's 402 without a `PAYMENT-REQUIRED` header gave no
/// endpoints: no paywall's terms in its scripts.
pub(crate) const PAYWALL_UNREAD: &str =
    "the page carries no PAYMENT-REQUIRED header and no x402 paywall's payment requirements";

#[cfg(test)]
mod tests {
    use super::*;

    const H: Option<State> = Some(State::HumanBacked);
    const R: Option<State> = Some(State::Revoked);
    const U: Option<State> = Some(State::Unknown);

    #[test]
    fn the_toolbar_shows_revoked_first_then_checking_then_every_option_verified() {
        let shown = |states: &[Option<State>]| {
            let t = toolbar(states);
            (t.state, t.option)
        };
        assert_eq!(shown(&[H, U, R, R]), (R, 2));
        assert_eq!(shown(&[H, None, R]), (R, 2));
        assert_eq!(shown(&[H, None, U]), (None, 1));
        assert_eq!(shown(&[H, H]), (H, 0));
        assert_eq!(shown(&[H, U, U]), (U, 1));
        assert_eq!(shown(&[U]), (U, 0));
        assert_eq!(shown(&[]), (U, 0));
    }

    #[test]
    fn the_title_counts_several_options() {
        assert_eq!(toolbar_title(1, "Verification: x."), "Verification: x.");
        assert_eq!(
            toolbar_title(2, "Verification: x."),
            "2 options: Verification: x."
        );
    }

    #[test]
    fn shortens_an_address_in_the_middle() {
        assert_eq!(
            short_address("0x209693Bc6afc0C5328bA36FaF03C514EF312287C"),
            "0x2096…287C"
        );
        assert_eq!(
            short_address("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"),
            "7xKXtg…gAsU"
        );
        assert_eq!(short_address("0x123456789"), "0x123456789");
        assert_eq!(short_address("0x1234567890"), "0x1234…7890");
        assert_eq!(short_address("ééééééééééééé"), "éééééé…éééé");
    }

    #[test]
    fn names_a_network_and_a_host() {
        assert_eq!(network_name("eip155:8453"), "base");
        assert_eq!(network_name("base"), "base");
        assert_eq!(network_name("eip155:999"), "eip155:999");
        assert_eq!(
            resource_host("HTTPS://API.Example.com:443/x?y"),
            "api.example.com"
        );
        assert_eq!(resource_host("http://u@h.example:8080"), "h.example:8080");
        assert_eq!(resource_host("mcp://tools/x"), "mcp://tools/x");
        let endpoint = Endpoint::new(
            "eip155:84532",
            "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
            "https://a/b",
        )
        .unwrap();
        assert_eq!(payee_label(&endpoint), "to 0x2096…287C on base-sepolia");
    }

    #[test]
    fn a_badge_is_about_an_endpoint_by_the_endpoint_binding() {
        let [ab, cd] = ["ab", "cd"].map(|x| "0x".to_owned() + &x.repeat(20));
        let asked = [
            Endpoint::new("eip155:8453", &ab, "https://h/x").unwrap(),
            Endpoint::new(
                "eip155:8453",
                &cd.to_uppercase().replace('X', "x"),
                "https://h/x",
            )
            .unwrap(),
        ];
        let badge = Endpoint::new("base", &cd, "HTTPS://H/x").unwrap();
        assert_eq!(badge_about(&badge, &asked), Some(1));
        let other = Endpoint::new("base", "0xEF", "https://h/x").unwrap();
        assert_eq!(badge_about(&other, &asked), None);
    }

    #[test]
    fn checks_settings_as_the_badges_options() {
        let check = |base: &str| {
            check_settings(&mut |name| {
                Ok((name == "baseUrl").then(|| Value::String(base.to_owned())))
            })
        };
        assert!(check("https://verify.example").is_ok());
        let refused = check("ftp://x").unwrap_err();
        assert!(crate::writing::line(&refused).starts_with("baseUrl "));
    }

    #[test]
    fn reads_a_v1_paywall_pages_terms() {
        let option = r#"{"scheme":"exact","network":"base-sepolia","maxAmountRequired":"10000","resource":"http://h/legacy","description":"a \"quoted\" ] {","mimeType":"","payTo":"0xAB","maxTimeoutSeconds":60,"asset":"0xA"}"#;
        let page = format!(
            "<script>\n window.x402 = {{\n amount: 0.01,\n paymentRequirements: [{option}],\n testnet: true,\n config: {{ chainConfig: {{}} }} }};</script>"
        );
        let read = paywall_endpoints(&page);
        assert_eq!(read.reason, None);
        assert_eq!(read.endpoints.len(), 1);
        assert_eq!(read.endpoints[0].endpoint.pay_to(), "0xAB");
        assert_eq!(read.endpoints[0].endpoint.resource_url(), "http://h/legacy");
        for page in [
            "<p>no paywall</p>",
            "window.x402 = { paymentRequirements: 5 }",
            "window.x402 = { paymentRequirements: [ unterminated",
        ] {
            assert_eq!(
                paywall_endpoints(page).reason.as_deref(),
                Some(PAYWALL_UNREAD)
            );
        }
        let wrong = paywall_endpoints("window.x402 = { paymentRequirements: [{}] }");
        assert!(wrong.reason.unwrap().contains("accepts[0]"));
    }
}
