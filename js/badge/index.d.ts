// Types of the package's entry (index.js). The types of what the wasm reads
// and returns are its glue's (src/lookup.rs, src/challenge.rs).
import type { BadgeState, LookupOptions, VerdictResult } from "./x402_verdict_badge.js";
import type { DiscoveryEndpoints, LiveNote, PaymentEndpoint, PaymentEndpoints } from "./x402_verdict_challenge.js";

export type { BadgeState, DiscoveryEndpoints, LiveNote, PaymentEndpoint, PaymentEndpoints, VerdictResult };

/** Options of one badge: the lookup's, and its theme. */
export interface BadgeOptions extends LookupOptions {
  /** `"light"` or `"dark"` forces the badge's colours; `"auto"` (the default) follows the page's `color-scheme`. */
  theme?: "light" | "dark" | "auto";
  /** `"lazy"`: look the endpoint up only when the container comes near the viewport (the promise settles then). Default `"eager"`. */
  loading?: "eager" | "lazy";
}

/** Where the wasm can come from: its URL, a response, its bytes or a compiled module. */
export type WasmSource = string | URL | Request | Response | BufferSource | WebAssembly.Module;

/**
 * Loads the badge's wasm, from `input` when given, else from next to the
 * package. Optional: every function loads it on first use. Resolves when the
 * badge is ready (on the wasm, or on its JavaScript translation when the
 * wasm cannot run); never rejects.
 */
export default function init(input?: WasmSource | { module_or_path: WasmSource }): Promise<void>;

/**
 * Renders one badge into `container` (replacing its content; a "checking"
 * placeholder at once, or in the next frame past the 50th badge drawn in one
 * frame) and resolves to the state it rendered. Never rejects:
 * a missing container, bad options, a network error, a timeout or a hostile
 * response resolve to `"unknown"`.
 */
export function renderBadge(container: Element | null, options: BadgeOptions): Promise<BadgeState>;

/** Looks one endpoint up and resolves to the structured result. Never rejects. */
export function lookupVerdict(options: BadgeOptions): Promise<VerdictResult>;

/**
 * Renders a badge into every `data-x402-verdict` element in `root` (default:
 * the document), reading its options from `data-*` attributes, and resolves
 * to their states. A badge whose options did not change is not rendered again.
 * With `loading: "lazy"`, each waits until it comes near the viewport
 * (unless it says `data-loading="eager"`).
 */
export function renderAll(root?: ParentNode, options?: { loading?: "eager" | "lazy" }): Promise<BadgeState[]>;

/**
 * Reads an x402 payment challenge: an x402 v1 body object, a v2
 * `PaymentRequired` object, a `PAYMENT-REQUIRED` header value (or the JSON
 * text of any of these), or an MCP tool result. Resolves to its endpoints
 * (each, with a `baseUrl`, the options of `renderBadge` and `lookupVerdict`),
 * or to none and the reason. Never rejects.
 */
export function endpointsFromPaymentRequired(input: string | object): Promise<PaymentEndpoints>;

/**
 * Reads a page of a facilitator's discovery listing (x402's bazaar
 * extension, `GET /discovery/resources`: the object or its JSON text) or one
 * of its items. Resolves to each resource's endpoints, in order (or none
 * and the reason, for an item that cannot be read), with the page's
 * pagination; or to no items and why the page cannot be read. With
 * `options.live`, the text of a live snapshot (`x402-verdict scan --live
 * --json`'s output), each endpoint carries its row of it as `live`, and
 * each item the options its resource added. Never rejects.
 */
export function endpointsFromDiscovery(input: string | object, options?: { live?: string }): Promise<DiscoveryEndpoints>;

/** `<x402-verdict-badge>`: renders when connected and when an attribute or property changes. */
export interface VerdictBadgeElement extends HTMLElement, Partial<BadgeOptions> {
  /** The state rendered: `"checking"` until it settles. */
  readonly state: BadgeState | "checking";
}

declare global {
  interface HTMLElementTagNameMap {
    "x402-verdict-badge": VerdictBadgeElement;
  }
  interface HTMLElementEventMap {
    "x402-verdict:state": CustomEvent<{ state: BadgeState }>;
  }
}
