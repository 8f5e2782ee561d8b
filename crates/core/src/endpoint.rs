//! The endpoint identity (`chain`, `payTo`, `resourceUrl`) and its rules.

use std::borrow::Cow;

use crate::hidden::{is_format, is_hidden};
use crate::network::same_chain;
use crate::resource::same_resource;
use crate::writing::{display_from_words, error_without_cause, uDisplay, words_from_str};

/// The longest a `chain`, `payTo` or `resourceUrl` may be, in bytes.
pub const MAX_FIELD_BYTES: usize = 512;

/// One x402 endpoint, as named by its HTTP 402 response.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    chain: String,
    pay_to: String,
    resource_url: String,
}

/// Why a value cannot name an endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndpointError {
    /// The wire name of the offending field (`chain`, `payTo` or `resourceUrl`).
    pub field: &'static str,
    /// The rule it breaks.
    pub rule: FieldRule,
}

/// A rule every endpoint value follows, for [`EndpointError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldRule {
    /// It is the empty string.
    Empty,
    /// It is longer than [`MAX_FIELD_BYTES`].
    TooLong,
    /// It holds a control character (Unicode category Cc).
    ControlCharacter,
    /// It holds a format character (Unicode category Cf: a bidi override, a
    /// zero-width space), which shows the value as other text than it is.
    FormatCharacter,
}

impl FieldRule {
    /// The rule broken, as a predicate (`is empty`).
    pub fn as_str(self) -> &'static str {
        match self {
            FieldRule::Empty => "is empty",
            FieldRule::TooLong => "is longer than 512 bytes",
            FieldRule::ControlCharacter => "contains a control character",
            FieldRule::FormatCharacter => "contains an invisible format character",
        }
    }
}

words_from_str!(FieldRule);

impl uDisplay for EndpointError {
    fn fmt<W: ufmt::uWrite + ?Sized>(
        &self,
        f: &mut ufmt::Formatter<'_, W>,
    ) -> Result<(), W::Error> {
        ufmt::uwrite!(f, "{} {}", self.field, self.rule)
    }
}

display_from_words!(FieldRule);
error_without_cause!(EndpointError);

impl Endpoint {
    /// Checks the three values (non-empty, at most 512 bytes, no control or
    /// format characters) and keeps them exactly as given: nothing is lowercased.
    ///
    /// # Errors
    ///
    /// The first field that breaks a rule, by its wire name.
    pub fn new(chain: &str, pay_to: &str, resource_url: &str) -> Result<Self, EndpointError> {
        check_field("chain", chain)?;
        check_field("payTo", pay_to)?;
        check_field("resourceUrl", resource_url)?;
        Ok(Endpoint {
            chain: chain.to_owned(),
            pay_to: pay_to.to_owned(),
            resource_url: resource_url.to_owned(),
        })
    }

    /// The network the payment settles on.
    pub fn chain(&self) -> &str {
        &self.chain
    }

    /// The address the payment goes to.
    pub fn pay_to(&self) -> &str {
        &self.pay_to
    }

    /// The resource URL the payment unlocks (never fetched).
    pub fn resource_url(&self) -> &str {
        &self.resource_url
    }

    /// Whether `(chain, pay_to, resource_url)` names this endpoint: `chain`
    /// exactly or by its alias ([`canonical_chain`](crate::canonical_chain):
    /// `base` is `eip155:8453`),
    /// `resourceUrl` by its normalized form ([`same_resource`]: the
    /// scheme's and host's case, the default port, an empty path, the
    /// percent-encodings), `payTo` exactly or, for two EVM addresses,
    /// ignoring ASCII case.
    pub fn is(&self, chain: &str, pay_to: &str, resource_url: &str) -> bool {
        same_chain(&self.chain, chain)
            && same_resource(&self.resource_url, resource_url)
            && same_address(&self.pay_to, pay_to)
    }
}

/// The spelling under which every value consumers read as one endpoint
/// meets (their matching rule, [`Endpoint::is`]): `chain` by its
/// [canonical name](crate::network::canonical_chain) (`base` is
/// `eip155:8453`), `payTo` in its canonical spelling (an EVM address in lowercase),
/// `resourceUrl` normalized ([`same_resource`]). Two endpoints
/// are one exactly when their keys are equal, so an index or a set of
/// endpoints can be keyed by it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EndpointKey {
    /// The chain's canonical name.
    pub chain: String,
    /// The address's canonical spelling.
    pub pay_to: String,
    /// The resource URL, normalized.
    pub resource_url: String,
}

impl Endpoint {
    /// The endpoint's [`EndpointKey`].
    pub fn key(&self) -> EndpointKey {
        EndpointKey {
            chain: crate::network::canonical_chain(&self.chain).to_owned(),
            pay_to: canonical_address(&self.pay_to).into_owned(),
            resource_url: crate::resource::normalize(&self.resource_url).into_owned(),
        }
    }
}

/// Two `payTo` values are one address when equal, or when both are `0x` and
/// 40 hex digits and equal ignoring ASCII case (EIP-55 checksums differ only
/// in case).
pub(crate) fn same_address(a: &str, b: &str) -> bool {
    a == b || (is_evm_address(a) && is_evm_address(b) && a.eq_ignore_ascii_case(b))
}

/// The one spelling of a `payTo` value that [`same_address`] reads as the
/// same address: an EVM address in lowercase, any other value unchanged. Two
/// values are one address exactly when their canonical spellings are equal,
/// so a service can index its entries by it.
pub(crate) fn canonical_address(pay_to: &str) -> Cow<'_, str> {
    if is_evm_address(pay_to) {
        Cow::Owned(pay_to.to_ascii_lowercase())
    } else {
        Cow::Borrowed(pay_to)
    }
}

fn is_evm_address(s: &str) -> bool {
    s.strip_prefix("0x")
        .is_some_and(|hex| hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The rule each endpoint value follows (non-empty, at most
/// [`MAX_FIELD_BYTES`], no control or format characters: [`is_hidden`]),
/// for a value named `field`.
///
/// # Errors
///
/// What is wrong with the value, under the name `field`.
pub fn check_field(field: &'static str, value: &str) -> Result<(), EndpointError> {
    let rule = if value.is_empty() {
        FieldRule::Empty
    } else if value.len() > MAX_FIELD_BYTES {
        FieldRule::TooLong
    } else if let Some(c) = value.chars().find(|&c| is_hidden(c)) {
        if is_format(c) {
            FieldRule::FormatCharacter
        } else {
            FieldRule::ControlCharacter
        }
    } else {
        return Ok(());
    };
    Err(EndpointError { field, rule })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EVM: &str = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

    #[test]
    fn evm_addresses_match_ignoring_case_only() {
        assert!(same_address(EVM, &EVM.to_lowercase()));
        assert!(same_address(
            EVM,
            &EVM.to_uppercase().replacen("0X", "0x", 1)
        ));
        assert!(!same_address(EVM, &EVM.replace('C', "D")));
        // Not EVM-shaped: case matters (Solana addresses are case-sensitive).
        assert!(!same_address("AbC", "abc"));
        assert!(!same_address("0xabc", "0xABC"));
    }

    #[test]
    fn canonical_addresses_are_equal_exactly_when_the_addresses_are_one() {
        let values = [
            EVM,
            "0x209693bc6afc0c5328ba36faf03c514ef312287c",
            "0X209693Bc6afc0C5328bA36FaF03C514EF312287C",
            "0x209693Bc6afc0C5328bA36FaF03C514EF312287",
            "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
            "7xkxtg2cw87d97txjsdpbd5jbkhetqa83tzrujosgasu",
            "0xABC",
            "0xabc",
        ];
        for a in values {
            for b in values {
                assert_eq!(
                    canonical_address(a) == canonical_address(b),
                    same_address(a, b),
                    "{a} {b}"
                );
            }
        }
    }

    #[test]
    fn chain_is_exact_and_resource_normalized() {
        let e = Endpoint::new("base", EVM, "https://a.example/x").unwrap();
        assert!(e.is("base", EVM, "https://a.example/x"));
        assert!(e.is("base", EVM, "HTTPS://A.example:443/x"));
        assert!(!e.is("Base", EVM, "https://a.example/x"));
        assert!(!e.is("base", EVM, "https://a.example/X"));
        assert!(!e.is("base", EVM, "https://a.example/x?q"));
        assert!(!e.is("base-sepolia", EVM, "https://a.example/x"));
    }

    #[test]
    fn a_chain_matches_its_alias() {
        let e = Endpoint::new("base", EVM, "https://a.example/x").unwrap();
        assert!(e.is("eip155:8453", EVM, "https://a.example/x"));
        let e = Endpoint::new("eip155:8453", EVM, "https://a.example/x").unwrap();
        assert!(e.is("base", &EVM.to_lowercase(), "https://a.example/x"));
        assert!(!e.is("eip155:84532", EVM, "https://a.example/x"));
    }

    #[test]
    fn names_the_bad_field() {
        let error = |field, rule| Err(EndpointError { field, rule });
        assert_eq!(
            Endpoint::new("", "p", "r"),
            error("chain", FieldRule::Empty)
        );
        let long = "x".repeat(513);
        assert_eq!(
            Endpoint::new("c", &long, "r"),
            error("payTo", FieldRule::TooLong)
        );
        assert_eq!(
            Endpoint::new("c", "p", "a\nb"),
            error("resourceUrl", FieldRule::ControlCharacter)
        );
        for hidden in ["a\u{202e}b", "\u{2066}x", "pay\u{200b}to", "\u{feff}"] {
            assert_eq!(
                Endpoint::new("c", hidden, "r"),
                error("payTo", FieldRule::FormatCharacter)
            );
        }
        assert_eq!(
            Endpoint::new("c\u{200b}", "p", "r")
                .unwrap_err()
                .to_string(),
            "chain contains an invisible format character"
        );
        assert!(Endpoint::new("c", &"x".repeat(512), "r").is_ok());
        assert_eq!(
            Endpoint::new("c", &long, "r").unwrap_err().to_string(),
            "payTo is longer than 512 bytes"
        );
    }
}
