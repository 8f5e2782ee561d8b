//! A v1 paywall page's payment terms: the `paymentRequirements` of the
//! `window.x402` configuration that `x402-express` writes into the page it
//! serves browsers with a 402 and no `PAYMENT-REQUIRED` header, read as an
//! x402 v1 challenge's `accepts` (the buyer's browser extension reads a
//! top document's 402 so).

use crate::bounds::MAX_CHALLENGE_BYTES;
use crate::challenge::{Challenge, ChallengeEndpoints};
use crate::json::{parse_strict, Object, Value};

/// The most text of a page's inline scripts read for a v1 paywall's terms,
/// in UTF-16 code units: the terms are at most a challenge's bytes, the rest
/// of the paywall's configuration (its chain table) about as much again.
pub const MAX_PAYWALL_TEXT: usize = 4 * MAX_CHALLENGE_BYTES;

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

/// Why a top document's 402 without a `PAYMENT-REQUIRED` header gave no
/// endpoints: no paywall's terms in its scripts.
pub(crate) const PAYWALL_UNREAD: &str =
    "the page carries no PAYMENT-REQUIRED header and no x402 paywall's payment requirements";

#[cfg(test)]
mod tests {
    use super::*;

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
