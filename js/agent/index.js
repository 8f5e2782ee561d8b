// The x402-verdict package's entry, for code that pays (Node 20 and browser
// apps): the same Rust core as the badge, compiled to wasm (./engine.js
// loads it). Every decision and every word comes from it; this file only
// hands calls on. Sellers' servers: ./seller.js (x402-verdict/seller).
import { engine } from "./engine.js";
import { guardWith } from "./guard.js";

/** Looks one endpoint up; resolves to the structured result (the MCP `lookup_verdict` tool's), never rejects. */
export const lookupVerdict = (options) => engine.lookupVerdict(options);

/** Looks one endpoint up; resolves to the structured result (the MCP `endpoint_status` tool's, the same), never rejects. */
export const endpointStatus = (options) => engine.lookupVerdict(options);

/** Hooks `client` (an x402Client from @x402/core or @x402/fetch) so that it pays only what `options.policy` allows; returns it. */
export const guard = (client, options) => guardWith(engine, client, options);
