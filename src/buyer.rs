//! What the buyer's browser extension (`pkg-extension/`) decides and
//! spells on its own: which state its toolbar shows for the payment a tab
//! was asked and the title it carries, who each option pays in a buyer's
//! words, whether a badge the page draws is about an endpoint the page asks
//! payment for, how its settings are stored and checked, and the page's
//! badges it reads. Every protocol rule (the challenge, a v1 paywall's
//! terms, an image badge's URL, the `PAYMENT-REQUIRED` header) is the
//! core's. Compiled in every build, so that `cargo xtask generate` reads
//! these bounds and spellings natively and writes them into the
//! extension's JavaScript and its policy schema; the engine (`src/extension.rs`,
//! feature `extension`) calls the rest.

use x402_verdict_core::json::Value;
use x402_verdict_core::{
    v1_network_name, words, Endpoint, LookupOptions, OptionField, OptionsError, State,
};

use crate::words::seller::option_label;

/// The most challenges a tab's record keeps: the last ones met.
pub const MAX_CHALLENGES_KEPT: usize = 20;

/// The most badges of a page the extension reads (the first ones, in
/// document order).
pub const MAX_PAGE_BADGES: usize = 32;

/// The elements that are the page's own badges: the script tag's and the
/// custom element (the badge package's two ways onto a page).
pub const PAGE_BADGE_SELECTOR: &str = "[data-x402-verdict],x402-verdict-badge";

/// The prefix of a badge's attributes, for each selector's element in turn:
/// `data-` for the script tag's, none for the element.
pub const PAGE_BADGE_PREFIXES: [(&str, &str); 2] =
    [("[data-x402-verdict]", "data-"), ("x402-verdict-badge", "")];

/// The page's image badges: an `<img>` whose URL asks a service's image
/// route ([`IMAGE_PATH`](x402_verdict_core::IMAGE_PATH)), read by
/// [`image_badge_endpoint`](x402_verdict_core::image_badge_endpoint).
pub const PAGE_IMAGE_SELECTOR: &str = "img[src*=\"/v0/badge.svg?\"]";

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
        words(&options) + " options: " + line
    } else {
        line.to_owned()
    }
}

/// An address shortened in the middle for a narrow line (`0x2096…287C`):
/// its first six and last four characters around an ellipsis, or the
/// whole address when that is not shorter.
fn short_address(address: &str) -> String {
    const HEAD: usize = 6;
    const TAIL: usize = 4;
    let count = address.chars().count();
    if count <= HEAD + TAIL + 1 {
        return address.to_owned();
    }
    let head: String = address.chars().take(HEAD).collect();
    let tail: String = address.chars().skip(count - TAIL).collect();
    head + "…" + &tail
}

/// Who an option pays, in a buyer's words: `to 0x2096…287C on base`, the
/// seller page's option label with the address shortened and the network
/// named.
pub fn payee_label(endpoint: &Endpoint) -> String {
    option_label(
        v1_network_name(endpoint.chain()),
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

/// The `storage.local` key of the settings (and of the policy's, in
/// `storage.managed`): an object with these members.
pub const SETTINGS_KEY: &str = "settings";

/// The settings' members: the lookup options of the same names, the
/// transparency log's among them (docs/protocol.md, "The rule").
pub const SETTINGS_MEMBERS: [&str; 8] = [
    "baseUrl",
    "publicKey",
    "rootKey",
    "strict",
    "logKey",
    "witnessKeys",
    "witnessQuorum",
    "transparency",
];

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
    fn names_who_an_option_pays() {
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
        assert!(x402_verdict_core::line(&refused).starts_with("baseUrl "));
    }
}
