// Types of the package's seller module (seller.js).
import type { LookupOptions } from "./x402_verdict.js";
import type { TransparencyOptions } from "./index.js";

export type { FetchedVerdict } from "./x402_verdict.js";

/** One endpoint, as a 402 response names it. */
export interface Endpoint {
  chain: string;
  payTo: string;
  resourceUrl: string;
}

/** What every verdict the seller fetches is checked against, and how it is asked for (`timeoutMs`: each request's, as a lookup's). */
export interface ServiceOptions extends Pick<LookupOptions, "timeoutMs">, TransparencyOptions {
  /** The verification service's base URL (absolute http(s)). */
  baseUrl: string;
  /** Trusted keys: one base64 Ed25519 key or a list of them (the badge needs them, or `rootKey`, to take an inlined verdict). */
  publicKey?: string | string[];
  /** Pinned root keys: one base64 Ed25519 key or a list of them; each verdict's certificate names its signing key. */
  rootKey?: string | string[];
  /** Require a valid signature for a positive result (default true). */
  strict?: boolean;
}

/** A cache of verdicts for a seller's server. */
export interface VerdictCache {
  /** The verdict to inline for `endpoint` now (undefined: none warm, or none the badge would take); keeps it warm. */
  get(endpoint: Endpoint): string | undefined;
  /** The same, once an answer is in. Never rejects. */
  fetch(endpoint: Endpoint): Promise<string | undefined>;
  /** Stops keeping anything. */
  clear(): void;
}

/** A cache of the verdicts of the endpoints it is asked about, kept per Cache-Control. */
export function verdictCache(options: ServiceOptions): VerdictCache;

/** The badge's element for one endpoint as HTML text, its verdict inlined when given; every value escaped. */
export function badgeHtml(options: ServiceOptions & Endpoint & {
  verdict?: string;
  theme?: "light" | "dark" | "auto";
  loading?: "eager" | "lazy";
}): string;

/** A CSP nonce, or a function giving the current page's. */
export type Nonce = string | (() => string | undefined);

/** The `<head>` snippet: the wasm's preload hint and embed.js's script tag. */
export function headHtml(options: { badgeScriptUrl: string; nonce?: Nonce }): string;

/** The part of a PaywallProvider (@x402/core/server) the official middleware calls. */
export interface PaywallProvider {
  generateHtml(paymentRequired: any, config?: any): string;
}

/** The options of verdictPaywall. */
export interface VerdictPaywallOptions extends ServiceOptions {
  /** Where the page loads embed.js from (the badge package's folder, or a CDN's). */
  badgeScriptUrl: string;
  /** The paywall whose page carries the badges (such as @x402/paywall's); without one, a 402 page of its own. */
  paywall?: PaywallProvider;
  /** The CSP nonce of the page's script tags. */
  nonce?: Nonce;
}

/**
 * A PaywallProvider whose page shows a badge, its verdict inlined, for each
 * accepted option; a provider's page it cannot place them in safely is
 * served as given.
 */
export function verdictPaywall(options: VerdictPaywallOptions): PaywallProvider & { cache: VerdictCache };

/** The part of a ResourceServerExtension (@x402/core/server) the resource server calls. */
export interface VerdictExtension {
  /** `x402-verdict`: the key a route declares under `extensions`. */
  key: string;
  /** The fields of its info that change from one 402 to the next (its `verdicts`). */
  dynamicInfoFields: string[];
  /** The extension's value for one 402: `{ info: { verdicts }, schema }`, the kept verdicts of its options. */
  enrichPaymentRequiredResponse(declaration: unknown, context: { paymentRequiredResponse: any }): Promise<unknown>;
}

/** The resource server extension stapling the verdicts `verdicts` keeps to each 402 of the routes declaring it. */
export function verdictExtension(verdicts: VerdictCache): VerdictExtension;
