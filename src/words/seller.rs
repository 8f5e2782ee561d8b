//! What the `x402-verdict` package's seller module (`x402-verdict/seller`)
//! writes of its own, in one place: the words of the 402 page it serves to
//! browsers when it is given no paywall to carry its badges, and the label
//! beside each accepted option's badge. Everything else
//! it writes is the badge's markup (whose words are the badge's, drawn in
//! the browser) and the seller's own page.

/// The title and heading of the seller's own 402 page.
pub const PAYWALL_TITLE: &str = "Payment required";

/// The paragraph of the seller's own 402 page, above its badges.
pub const PAYWALL_TEXT: &str = "This resource is paid for with x402: a client reads its price from the PAYMENT-REQUIRED header of this answer. Each badge below says whether a verified operator stands behind an address it accepts payment to.";

/// The label beside the badge of one option a paywall accepts, so that a
/// buyer knows which address the badge speaks of: `to 0x… on base`, the
/// address and network as the payment requirements write them.
pub fn option_label(chain: &str, pay_to: &str) -> String {
    ["to ", pay_to, " on ", chain].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_an_option_by_its_address_and_network() {
        assert_eq!(option_label("base", "0xAb"), "to 0xAb on base");
    }
}
