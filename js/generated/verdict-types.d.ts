// Written by `cargo xtask generate`: do not edit.

/** What a badge rendered. */
export type BadgeState = "human-backed" | "revoked" | "unknown";

/** What the lookup concluded (protocol section 5). */
export type Outcome = "human_backed" | "revoked" | "stale" | "no_signal" | "no_service" | "no_response";

/** Whether the last re-check is within its promised cadence. */
export type Freshness = "fresh" | "overdue" | "unknown";

/** What the signature check found. */
export type SignatureStatus = "valid" | "invalid" | "unverifiable" | "not_checked";

/** Why the result is what it is, when it is not plainly human-backed. */
export type Reason = "no_base_url" | "invalid_input" | "not_listed" | "http_status" | "network_error" | "timeout" | "too_large" | "redirected" | "malformed" | "endpoint_mismatch" | "no_signal" | "stale" | "revoked" | "overdue" | "verified_in_future" | "signature_invalid" | "signature_required" | "no_transparency_proof" | "malformed_transparency_proof" | "checkpoint_not_signed_by_log" | "too_few_cosignatures" | "log_entry_mismatch" | "bad_inclusion_proof";

/** The guard's policy by name (`"function"`: the agent's own). */
export type PolicyName = "avoid-revoked" | "require-human-backed" | "function";

/** How a lookup takes the transparency proofs verdicts carry. */
export type TransparencyPolicy = "off" | "if-present" | "required";

/** Options of one lookup. */
export interface LookupOptions {
  /** The verification service's base URL (absolute http(s)). Absent: `unknown`, outcome `no_service`. */
  baseUrl?: string;
  /** The endpoint's network, from its 402 response (`base`, `eip155:8453`, …). */
  chain: string;
  /** The endpoint's payment address. */
  payTo: string;
  /** The resource URL the payment unlocks (never fetched). */
  resourceUrl: string;
  /** Trusted keys: one base64 Ed25519 key, a list of them, or a keys document. */
  publicKey?: string | string[] | { keys: { publicKey: string; algorithm: string; keyId?: string; status?: string }[] };
  /** Pinned root keys (one base64 Ed25519 key or a list): a verdict verifies under the key its certificate certifies. */
  rootKey?: string | string[];
  /** Whole-exchange timeout in milliseconds, 1 to 60000 (default 3000). */
  timeoutMs?: number;
  /** Require a valid signature for a positive result (default false). */
  strict?: boolean;
  /**
   * The endpoint's signed verdict as the service returned it (its JSON text),
   * inlined by the seller's server: used with no request when it is about this
   * endpoint, validly signed under `publicKey` and at most 300 s old; otherwise
   * the service is asked as if it were absent.
   */
  verdict?: string;
}

/** The structured result of a lookup (protocol section 5). */
export interface VerdictResult {
  state: BadgeState;
  outcome: Outcome;
  freshness: Freshness;
  signature: SignatureStatus;
  assuranceLevel?: string;
  verifiedAt?: string;
  recheckEveryHours?: number;
  reason?: Reason;
  detail?: string;
}

/** One way to pay a challenge accepts; with a `baseUrl`, it is the options of `renderBadge` and `lookupVerdict`. */
export interface PaymentEndpoint {
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
   * `publicKey`, about this endpoint and at most 300 s old. Absent when none is stapled.
   */
  verdict?: string;
}

/** The endpoints of a challenge, or none and the reason. */
export interface PaymentEndpoints {
  endpoints: PaymentEndpoint[];
  reason?: string;
}

/** What a live snapshot (`x402-verdict scan --live --json`'s output) says of an endpoint: its row's kind and its line. */
export interface LiveNote {
  live: "live" | "changed" | "not-402" | "unreachable";
  /** The row in one line: `live`, `changed: another payTo (listed 0x…, now 0x…)`, `not-402: answered HTTP 404`. */
  note: string;
}

/** The endpoints of each resource of a discovery listing's page, in order (each, like a challenge's, none and the reason when it cannot be read), with the page's pagination; or no items and why the page cannot be read. With a live snapshot, each endpoint's row of it (`live`, where the snapshot has one), each item's options that its resource asks now and the listing does not name (`added`), and why a line of the snapshot was not read (`liveReason`). */
export interface DiscoveryEndpoints {
  items: (PaymentEndpoints & { endpoints: (PaymentEndpoint & { live?: LiveNote })[]; added?: (PaymentEndpoint & { live: LiveNote })[] })[];
  pagination?: { limit: number; offset: number; total: number };
  reason?: string;
  liveReason?: string;
}

/** What the core decided for one payment option. */
export interface PaymentCheck {
  /** The lookup's structured result. */
  result: VerdictResult;
  /** Whether the policy pays this option (always true under `"function"`: the function decides). */
  pays: boolean;
  /** 0 human-backed, 1 unknown, 2 revoked: options are tried in this order. */
  preference: number;
  /** The one line the guard aborts with when it does not pay this option. */
  refusal: string;
}

/** A verdict as the service returned it, for a seller's server to inline in its pages. */
export interface FetchedVerdict {
  /** The lookup's structured result, as `lookupVerdict` gives it. */
  result: VerdictResult;
  /** The verdict document's JSON text as the service returned it, when it answered one. */
  verdict?: string;
  /** For how long the answer may be kept: its `Cache-Control`'s `max-age`, at most an hour (0: not kept). */
  freshSeconds: number;
  /** For how long past that it may still be served while it is fetched anew (`stale-while-revalidate`). */
  staleSeconds: number;
}

/** An option of a challenge a tab met, with who it pays in a buyer's words. */
export interface MetEndpoint extends PaymentEndpoint {
  /** The resource's host. */
  host: string;
  /** `to 0x2096…287C on base`. */
  payee: string;
  /** The option's result once known. */
  view?: OptionView;
}

/** A challenge a tab met: its options, or none and why. */
export interface MetChallenge {
  /** The same for the same URL and options: a challenge met again is this one. */
  key: string;
  endpoints: MetEndpoint[];
  reason?: string;
}

/** An option's result, in the badge's words. */
export interface OptionView {
  state: BadgeState;
  /** The badge's label, hover text and accessible name. */
  label: string;
  hover: string;
  name: string;
  /** The `lookup_verdict` text line. */
  line: string;
}
