// Types of the package's entry (index.js). The types of what the wasm reads
// and returns are its glue's (src/lookup.rs, src/guard.rs).
import type { LookupOptions, PolicyName, VerdictResult } from "./x402_verdict.js";
import type { TransparencyPolicy } from "./verdict-types.js";

export type { LookupOptions, VerdictResult };

/**
 * The transparency log whose proofs verdicts carry (docs/protocol.md, The
 * rule): read by this package's lookups, the guard and the seller's cache,
 * never by a badge.
 */
export interface TransparencyOptions {
  /** The log's verifier key, `<origin>+<keyid>+<base64>`. */
  logKey?: string;
  /** The witnesses' verifier keys (type 0x04). */
  witnessKeys?: string[];
  /** How many of the witnesses must cosign a checkpoint (default 1 with witnesses, else 0). */
  witnessQuorum?: number;
  /**
   * `"off"` (default): proofs not read, results unchanged; `"if-present"`: a
   * carried proof is checked; `"required"`: a human-backed verdict without a
   * valid proof reads `unknown` (reason `no_transparency_proof`, …).
   */
  transparency?: TransparencyPolicy;
}

/** Looks one endpoint up; resolves to the MCP `lookup_verdict` tool's structured result. Never rejects. */
export function lookupVerdict(options: LookupOptions & TransparencyOptions): Promise<VerdictResult>;

/** Looks one endpoint up; resolves to the MCP `endpoint_status` tool's structured result (the same). Never rejects. */
export function endpointStatus(options: LookupOptions & TransparencyOptions): Promise<VerdictResult>;

/** One accepted payment option, as the x402 client sees it (v2 or v1). */
export interface PaymentRequirement {
  scheme: string;
  network: string;
  payTo: string;
  /** v1 only: the resource URL. */
  resource?: string;
  [key: string]: unknown;
}

/** An agent's own policy: true pays; false, or `{ abort: true, reason }`, refuses. */
export type PolicyFunction = (
  result: VerdictResult,
  requirement: PaymentRequirement,
) => boolean | { abort: true; reason: string } | Promise<boolean | { abort: true; reason: string }>;

/** The guard's options: `timeoutMs` and `strict` as a lookup's. */
export interface GuardOptions extends Pick<LookupOptions, "timeoutMs" | "strict">, TransparencyOptions {
  /** The verification service's base URL (absolute http(s)). Absent: every lookup reads `unknown`. */
  baseUrl?: string;
  /**
   * Trusted keys: one base64 Ed25519 key, a list of them, or a keys document.
   * Absent: the keys the service publishes at `/v0/verification-keys`
   * (kept per Cache-Control; `unverifiable` when they cannot be had).
   */
  publicKey?: LookupOptions["publicKey"];
  /** Pinned root keys: a verdict verifies under the key its certificate certifies (docs/protocol.md, Roots and key certificates). */
  rootKey?: LookupOptions["rootKey"];
  /** `"avoid-revoked"` (default), `"require-human-backed"`, or a function. */
  policy?: Exclude<PolicyName, "function"> | PolicyFunction;
  /**
   * An x402HTTPClient made on this client, to give wrapFetchWithPayment: the
   * guard then sees the URL fetched, and `require-human-backed` refuses a
   * resource declared on another origin.
   */
  httpClient?: { onPaymentRequired(hook: (context: { paymentRequired: unknown; requestUrl: string }) => Promise<void>): unknown };
  /** Called with each option's result, for logging. */
  onVerdict?: (result: VerdictResult, requirement: PaymentRequirement) => void;
}

/** The part of an x402Client the guard hooks. */
export interface GuardableClient {
  createPaymentPayload(paymentRequired: unknown): Promise<unknown>;
  registerPolicy(policy: (x402Version: number, requirements: PaymentRequirement[]) => PaymentRequirement[]): unknown;
  onBeforePaymentCreation(hook: (context: { paymentRequired: unknown; selectedRequirements: PaymentRequirement }) => Promise<void | { abort: true; reason: string }>): unknown;
}

/** Hooks `client` so that it pays only what the policy allows, preferring human-backed options; returns the client. */
export function guard<Client extends GuardableClient>(client: Client, options?: GuardOptions): Client;
