//! `verdict-types.d.ts`: the TypeScript types of what the wasm reads and
//! returns (a lookup's options and result, a challenge's endpoints), their
//! limits the core's, and the unions of the core's closed vocabularies
//! ([`crate::vocabulary`], and a live snapshot's rows), from their `ALL`
//! arrays. The wasm's
//! glue imports and re-exports them (`src/lookup.rs`, `src/challenge.rs`),
//! once for both packages.

use std::fmt::Write as _;

use x402_verdict_core::live::LiveKind;
use x402_verdict_core::{DEFAULT_TIMEOUT_MS, MAX_INLINED_AGE_SECONDS, MAX_TIMEOUT_MS};

/// `"a" | "b" | …`: the spellings, in the core's order.
fn union(spellings: impl IntoIterator<Item = &'static str>) -> String {
    spellings
        .into_iter()
        .map(|s| format!("{s:?}"))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The declaration file.
pub fn declarations() -> String {
    let mut out = crate::JS_HEADER.to_owned();
    for vocabulary in crate::vocabulary::all() {
        let (doc, name) = (vocabulary.doc, vocabulary.name);
        let union = union(vocabulary.spellings);
        let _ = write!(out, "\n/** {doc} */\nexport type {name} = {union};\n");
    }
    out.push_str(&lookup());
    out.push_str(&challenge());
    out
}

/// A lookup's options and result (`renderBadge`, `lookupVerdict`).
fn lookup() -> String {
    format!(
        r#"
/** Options of one lookup. */
export interface LookupOptions {{
  /** The verification service's base URL (absolute http(s)). Absent: `unknown`, outcome `no_service`. */
  baseUrl?: string;
  /** The endpoint's network, from its 402 response (`base`, `eip155:8453`, …). */
  chain: string;
  /** The endpoint's payment address. */
  payTo: string;
  /** The resource URL the payment unlocks (never fetched). */
  resourceUrl: string;
  /** Trusted keys: one base64 Ed25519 key, a list of them, or a keys document. */
  publicKey?: string | string[] | {{ keys: {{ publicKey: string; algorithm: string; keyId?: string; status?: string }}[] }};
  /** Pinned root keys (one base64 Ed25519 key or a list): a verdict verifies under the key its certificate certifies. */
  rootKey?: string | string[];
  /** Whole-exchange timeout in milliseconds, 1 to {MAX_TIMEOUT_MS} (default {DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Require a valid signature for a positive result (default false). */
  strict?: boolean;
  /**
   * The endpoint's signed verdict as the service returned it (its JSON text),
   * inlined by the seller's server: used with no request when it is about this
   * endpoint, validly signed under `publicKey` and at most {MAX_INLINED_AGE_SECONDS} s old; otherwise
   * the service is asked as if it were absent.
   */
  verdict?: string;
}}

/** The structured result of a lookup (protocol section 5). */
export interface VerdictResult {{
  state: BadgeState;
  outcome: Outcome;
  freshness: Freshness;
  signature: SignatureStatus;
  assuranceLevel?: string;
  verifiedAt?: string;
  recheckEveryHours?: number;
  reason?: Reason;
  detail?: string;
}}
"#
    )
}

/// A challenge's and a discovery listing's endpoints
/// (`endpointsFromPaymentRequired`, `endpointsFromDiscovery`).
fn challenge() -> String {
    let live = union(LiveKind::ALL.map(LiveKind::as_str));
    format!(
        r#"
/** One way to pay a challenge accepts; with a `baseUrl`, it is the options of `renderBadge` and `lookupVerdict`. */
export interface PaymentEndpoint {{
  /** The option's `network` (an x402 v1 name or a CAIP-2 id). */
  chain: string;
  payTo: string;
  /** v1: the option's `resource`; v2: the challenge's `resource.url`. */
  resourceUrl: string;
  scheme: string;
  asset: string;
  /** In the asset's smallest unit, as decimal digits. */
  amount: string;
  /**
   * The verdict the challenge staples for this option (x402 v2's `x402-verdict`
   * extension), as JSON text: the `verdict` option of `renderBadge` and
   * `lookupVerdict`, used with no request when it is validly signed under
   * `publicKey`, about this endpoint and at most {MAX_INLINED_AGE_SECONDS} s old. Absent when none is stapled.
   */
  verdict?: string;
}}

/** The endpoints of a challenge, or none and the reason. */
export interface PaymentEndpoints {{
  endpoints: PaymentEndpoint[];
  reason?: string;
}}

/** What a live snapshot (`x402-verdict scan --live --json`'s output) says of an endpoint: its row's kind and its line. */
export interface LiveNote {{
  live: {live};
  /** The row in one line: `live`, `changed: another payTo (listed 0x…, now 0x…)`, `not-402: answered HTTP 404`. */
  note: string;
}}

/** The endpoints of each resource of a discovery listing's page, in order (each, like a challenge's, none and the reason when it cannot be read), with the page's pagination; or no items and why the page cannot be read. With a live snapshot, each endpoint's row of it (`live`, where the snapshot has one), each item's options that its resource asks now and the listing does not name (`added`), and why a line of the snapshot was not read (`liveReason`). */
export interface DiscoveryEndpoints {{
  items: (PaymentEndpoints & {{ endpoints: (PaymentEndpoint & {{ live?: LiveNote }})[]; added?: (PaymentEndpoint & {{ live: LiveNote }})[] }})[];
  pagination?: {{ limit: number; offset: number; total: number }};
  reason?: string;
  liveReason?: string;
}}
"#
    )
}
