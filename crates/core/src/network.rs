//! The two names of a well-known network: its x402 v1 name (`base`) and its
//! CAIP-2 id (`eip155:8453`). An x402 v1 challenge names its network the
//! first way, a v2 challenge the second; both name one chain.

/// Each well-known x402 v1 network name with its CAIP-2 id, as the x402
/// reference implementations list them (the EVM networks of `@x402/evm`'s
/// `EVM_NETWORK_CHAIN_ID_MAP` and the Solana clusters of `@x402/svm`'s
/// `V1_TO_V2_NETWORK_MAP`). Each name and each id appears once.
pub(crate) const NETWORK_ALIASES: &[(&str, &str)] = &[
    ("ethereum", "eip155:1"),
    ("sepolia", "eip155:11155111"),
    ("abstract", "eip155:2741"),
    ("abstract-testnet", "eip155:11124"),
    ("base", "eip155:8453"),
    ("base-sepolia", "eip155:84532"),
    ("avalanche", "eip155:43114"),
    ("avalanche-fuji", "eip155:43113"),
    ("iotex", "eip155:4689"),
    ("sei", "eip155:1329"),
    ("sei-testnet", "eip155:1328"),
    ("polygon", "eip155:137"),
    ("polygon-amoy", "eip155:80002"),
    ("peaq", "eip155:3338"),
    ("story", "eip155:1514"),
    ("educhain", "eip155:41923"),
    ("skale-base-sepolia", "eip155:324705682"),
    ("megaeth", "eip155:4326"),
    ("monad", "eip155:143"),
    ("monad-testnet", "eip155:10143"),
    ("stable", "eip155:988"),
    ("stable-testnet", "eip155:2201"),
    ("celo", "eip155:42220"),
    ("flare", "eip155:14"),
    ("solana", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"),
    ("solana-devnet", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"),
    ("solana-testnet", "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z"),
];

/// The canonical name of a chain: the CAIP-2 id of a well-known x402 v1
/// network name (`base` gives `eip155:8453`), and any other value unchanged
/// (a CAIP-2 id is already canonical; an unknown name stays itself). Exact:
/// `Base` is not `base`.
pub fn canonical_chain(chain: &str) -> &str {
    NETWORK_ALIASES
        .iter()
        .find(|(v1, _)| *v1 == chain)
        .map_or(chain, |(_, caip2)| caip2)
}

/// A chain's x402 v1 name: the v1 name of a well-known network's CAIP-2 id
/// (`eip155:8453` gives `base`), and any other value unchanged, as
/// [`canonical_chain`] reversed.
pub fn v1_network_name(chain: &str) -> &str {
    NETWORK_ALIASES
        .iter()
        .find(|(_, caip2)| *caip2 == chain)
        .map_or(chain, |(v1, _)| v1)
}

/// Whether two chain values name one chain: equal once each is
/// [canonical](canonical_chain), so `base` and `eip155:8453` are one chain.
pub(crate) fn same_chain(a: &str, b: &str) -> bool {
    canonical_chain(a) == canonical_chain(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_ids_are_unique_and_well_formed() {
        for (i, (v1, caip2)) in NETWORK_ALIASES.iter().enumerate() {
            assert!(!v1.contains(':'), "{v1}");
            let (namespace, reference) = caip2.split_once(':').unwrap();
            assert!(["eip155", "solana"].contains(&namespace), "{caip2}");
            assert!(!reference.is_empty() && reference.len() <= 32, "{caip2}");
            for (other_v1, other_caip2) in &NETWORK_ALIASES[i + 1..] {
                assert_ne!(v1, other_v1);
                assert_ne!(caip2, other_caip2);
            }
        }
    }

    #[test]
    fn a_v1_name_and_its_caip2_id_are_one_chain() {
        assert_eq!(canonical_chain("base"), "eip155:8453");
        assert_eq!(canonical_chain("eip155:8453"), "eip155:8453");
        assert_eq!(canonical_chain("base-sepolia"), "eip155:84532");
        assert_eq!(canonical_chain("avalanche"), "eip155:43114");
        assert_eq!(canonical_chain("polygon"), "eip155:137");
        assert_eq!(
            canonical_chain("solana"),
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
        );
        assert_eq!(
            canonical_chain("solana-devnet"),
            "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"
        );
        assert!(same_chain("base", "eip155:8453"));
        assert!(same_chain("eip155:8453", "base"));
        assert!(same_chain("base", "base"));
        assert!(same_chain("eip155:999999", "eip155:999999"));
    }

    #[test]
    fn different_chains_stay_different() {
        assert!(!same_chain("base", "base-sepolia"));
        assert!(!same_chain("base", "eip155:84532"));
        assert!(!same_chain("solana", "solana-devnet"));
        // Exact: no case folding, no trimming, unknown names are themselves.
        assert!(!same_chain("Base", "eip155:8453"));
        assert!(!same_chain(" base", "base"));
        assert_eq!(canonical_chain("mystery-net"), "mystery-net");
    }

    #[test]
    fn names_a_network_by_its_v1_name() {
        assert_eq!(v1_network_name("eip155:8453"), "base");
        assert_eq!(v1_network_name("base"), "base");
        assert_eq!(v1_network_name("eip155:999"), "eip155:999");
    }
}
