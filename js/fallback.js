// The badge without WebAssembly (a Content-Security-Policy without
// 'wasm-unsafe-eval', a wasm file that cannot be fetched, WebAssembly
// disabled). Loaded only when the wasm fails. It fetches the verdict with the
// same timeout and limits as the wasm build and evaluates it by the same
// rules (docs/protocol.md: strict parsing, endpoint binding, outcome,
// freshness, clock skew), but it cannot check Ed25519 signatures: with keys
// configured, the signature is "unverifiable" (non-strict mode may show
// verified, strict mode shows unknown); without keys, "not_checked", as in the
// wasm build. tests/e2e/fallback.test.mjs runs one table of cases through
// both and requires the same state, outcome, freshness and reason. One
// difference: a configured key is checked for base64 and 32 bytes only (the
// wasm also refuses bytes that are not a curve point, or a small-order one).
import { mount, show } from "./badge.js";

const MAX_BODY_BYTES = 64 * 1024;
const MAX_DEPTH = 16;
const MAX_CLOCK_SKEW_SECONDS = 300;
const UNKNOWN = "unknown";
/** A number the verdict rules refuse: a fraction, an exponent, -0, or beyond 2^53 - 1. */
const OTHER_NUMBER = Symbol("other number");

class Problem extends Error {}

// ---- options (the core's LookupOptions::from_json) ----

function checkBaseUrl(text) {
  const rest = /^https?:\/\/(.*)$/s.exec(text)?.[1];
  const problem = text === "" ? "is empty"
    : new TextEncoder().encode(text).length > 2048 ? "is longer than 2048 bytes"
    : rest === undefined ? "is not an absolute http:// or https:// URL"
    : rest === "" || rest.startsWith("/") ? "has no host"
    : /[\s\p{Cc}]/u.test(text) ? "contains whitespace or a control character"
    : /[?#]/.test(text) ? "has a query or fragment"
    : text.includes("@") ? "carries credentials"
    : null;
  if (problem) throw new Problem(`baseUrl ${problem}`);
  return text.replace(/\/$/, "");
}

function checkField(name, value) {
  const problem = value === "" ? "is empty"
    : new TextEncoder().encode(value).length > 512 ? "is longer than 512 bytes"
    : /\p{Cc}/u.test(value) ? "contains a control character"
    : /\p{Cf}/u.test(value) ? "contains an invisible format character"
    : null;
  if (problem) throw new Problem(`${name} ${problem}`);
}

/** Base64 (standard with padding, or base64url without) to its byte count, or -1. */
function base64Length(text) {
  const standard = /^[A-Za-z0-9_-]*$/.test(text) && text.length % 4 !== 1
    ? text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=")
    : text;
  try {
    const bytes = atob(standard);
    // Canonical encodings only (no stray bits), as the wasm build decodes them.
    return /^[A-Za-z0-9+/]*={0,2}$/.test(standard) && btoa(bytes) === standard ? bytes.length : -1;
  } catch {
    return -1;
  }
}

function checkKey(text, describe) {
  const length = base64Length(text.trim());
  if (length < 0) throw new Problem(`${describe} is not base64`);
  if (length !== 32) throw new Problem(`${describe} is not 32 bytes (a raw Ed25519 public key)`);
}

/** Whether any key is configured; throws a Problem naming a bad one. */
function checkKeys(value) {
  const list = (texts) => {
    if (!texts.every((t) => typeof t === "string")) throw new Problem("every key in the list must be a base64 string");
    texts.forEach((t, i) => checkKey(t, texts.length === 1 ? "the public key" : `public key #${i + 1}`));
    if (!texts.length) throw new Problem("no public key given");
  };
  if (typeof value === "string") return list([value]);
  if (Array.isArray(value)) return list(value);
  if (value && typeof value === "object") {
    if (!Array.isArray(value.keys)) throw new Problem('a keys document needs a "keys" array');
    let found = 0;
    value.keys.forEach((entry, i) => {
      if (entry?.algorithm !== "Ed25519") return;
      if (typeof entry.publicKey !== "string") throw new Problem(`keys[${i}].publicKey is missing`);
      checkKey(entry.publicKey, `keys[${i}].publicKey`);
      found++;
    });
    if (!found) throw new Problem("the keys document holds no Ed25519 key");
    return;
  }
  throw new Problem("must be a base64 string, a list of them, or a keys document");
}

/** One option, as the wasm build reads it: absent (undefined or null), or a
 * value; throws a Problem when it cannot be read or JSON cannot hold it. */
function readOption(options, name) {
  let value;
  try {
    value = options[name];
  } catch {
    throw new Problem(`${name} could not be read`);
  }
  if (typeof value === "bigint") throw new Problem(`${name} is a BigInt, not a number`);
  if (typeof value === "function" || typeof value === "symbol") throw new Problem(`${name} is not a JSON value`);
  return value ?? undefined;
}

/** Reads and checks the options (the core's LookupOptions::from_fields);
 * throws a Problem naming every bad one. */
function readOptions(options) {
  if (!options || (typeof options !== "object" && typeof options !== "function")) throw new Problem("options must be an object");
  const problems = [];
  /** Runs `check`; a Problem it throws is noted, and the result is undefined. */
  const attempt = (check) => {
    try {
      return check();
    } catch (e) {
      problems.push(e.message);
      return undefined;
    }
  };
  /** The option `name`, or undefined: absent (noted as missing when required) or unreadable (noted). */
  const take = (name, required = false) => attempt(() => {
    const value = readOption(options, name);
    if (value === undefined && required) throw new Problem(`${name} is missing`);
    return value;
  });
  let baseUrl = take("baseUrl");
  if (baseUrl !== undefined) {
    baseUrl = attempt(() => {
      if (typeof baseUrl !== "string") throw new Problem("baseUrl must be a string");
      let absolute = baseUrl;
      try {
        if (baseUrl) absolute = new URL(baseUrl, document.baseURI).href;
      } catch {
        // Checked as written.
      }
      return checkBaseUrl(absolute);
    });
  }
  const names = ["chain", "payTo", "resourceUrl"];
  const before = problems.length;
  const fields = names.map((name) => attempt(() => {
    const value = take(name, true);
    if (value !== undefined && typeof value !== "string") throw new Problem(`${name} must be a string`);
    return value;
  }));
  if (problems.length === before) attempt(() => fields.forEach((value, i) => checkField(names[i], value)));
  const keys = take("publicKey");
  if (keys !== undefined) {
    attempt(() => {
      try {
        checkKeys(keys);
      } catch (e) {
        throw new Problem(`publicKey: ${e.message}`);
      }
    });
  }
  const timeoutMs = take("timeoutMs") ?? 3000;
  if (!(Number.isInteger(timeoutMs) && timeoutMs >= 1 && timeoutMs <= 60000)) {
    problems.push("timeoutMs must be a whole number of milliseconds from 1 to 60000");
  }
  const strict = take("strict") ?? false;
  if (typeof strict !== "boolean") problems.push("strict must be true or false");
  if (problems.length) throw new Problem(problems.join("; "));
  const [chain, payTo, resourceUrl] = fields;
  return { baseUrl, chain, payTo, resourceUrl, keyed: keys !== undefined, timeoutMs, strict };
}

// ---- strict JSON (the core's json::parse_strict) ----

/** Parses `text` strictly: objects become Maps; refuses duplicate names, deep nesting, lone surrogates. */
function parseStrict(text) {
  let i = 0;
  const fail = (problem) => {
    throw new Problem(`not strict JSON: ${problem} at byte ${i}`);
  };
  const space = () => {
    while (/[ \t\n\r]/.test(text[i] ?? "")) i++;
  };
  const expect = (c, problem) => (text[i] === c ? i++ : fail(problem));
  const hex4 = () => {
    const digits = text.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) fail("invalid \\u escape");
    i += 4;
    return parseInt(digits, 16);
  };
  const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
  const string = () => {
    i++;
    let out = "";
    for (;;) {
      const c = text[i++];
      if (c === undefined) fail("unterminated string");
      if (c === '"') return out;
      if (c < " ") fail("control character in a string");
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = text[i++];
      if (Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        continue;
      }
      if (e !== "u") fail("invalid escape");
      const unit = hex4();
      if (unit >= 0xdc00 && unit < 0xe000) fail("lone surrogate in a \\u escape");
      if (unit >= 0xd800 && unit < 0xdc00) {
        const low = text.startsWith("\\u", i) ? ((i += 2), hex4()) : -1;
        if (!(low >= 0xdc00 && low < 0xe000)) fail("lone surrogate in a \\u escape");
        out += String.fromCharCode(unit, low);
      } else {
        out += String.fromCharCode(unit);
      }
    }
  };
  const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  const value = (depth) => {
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      if (depth >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
      i++;
      const object = c === "{";
      const out = object ? new Map() : [];
      space();
      if (text[i] === (object ? "}" : "]")) {
        i++;
        return out;
      }
      for (;;) {
        if (object) {
          space();
          if (text[i] !== '"') fail("expected a member name");
          const name = string();
          if (out.has(name)) fail("duplicate member name");
          space();
          expect(":", "expected ':'");
          out.set(name, value(depth + 1));
        } else {
          out.push(value(depth + 1));
        }
        space();
        if (text[i] !== ",") break;
        i++;
      }
      expect(object ? "}" : "]", "expected ',' or a closing bracket");
      return out;
    }
    if (c === '"') return string();
    for (const [word, literal] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return literal;
      }
    }
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (!number) fail(c === undefined ? "unexpected end of input" : "expected a JSON value");
    i = NUMBER.lastIndex;
    const n = Number(number[0]);
    return number[2] || number[3] || Object.is(n, -0) || Math.abs(n) > Number.MAX_SAFE_INTEGER ? OTHER_NUMBER : n;
  };
  const result = value(0);
  space();
  if (i < text.length) fail("trailing characters");
  return result;
}

// ---- the verdict (the core's verdict::Verdict::from_object) ----

/** Seconds since 1970 of an RFC 3339 UTC time as the protocol allows it, or null. */
function parseTime(text) {
  const m = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(\.\d{1,9})?Z$/.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59)) / 1000;
}

function malformed(field, problem) {
  throw new Problem(`verdict.${field} ${problem}`);
}

function holdsOtherNumber(value) {
  if (value === OTHER_NUMBER) return true;
  const children = value instanceof Map ? [...value.values()] : Array.isArray(value) ? value : [];
  return children.some(holdsOtherNumber);
}

/** The verdict's fields, checked; throws a Problem naming the first rule broken. */
function readVerdict(body) {
  const document = parseStrict(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(body));
  if (!(document instanceof Map)) throw new Problem("the document is not a JSON object");
  const raw = document.get("verdict");
  if (!(raw instanceof Map)) throw new Problem('the document has no "verdict" object');
  if (holdsOtherNumber(raw)) throw new Problem("verdict holds a number that is not an integer of at most 2^53 - 1");
  const string = (field) => {
    const value = raw.get(field);
    if (value !== undefined && typeof value !== "string") malformed(field, "is not a string");
    return value;
  };
  const time = (field) => {
    const text = string(field);
    if (text === undefined) return undefined;
    return parseTime(text) ?? malformed(field, "is not an RFC 3339 UTC time");
  };
  if (!raw.has("v")) malformed("v", "is missing");
  if (raw.get("v") !== 1) malformed("v", "is not the integer 1");
  const outcome = string("outcome");
  if (outcome === undefined) malformed("outcome", "is missing");
  if (!["human_backed", "revoked", "stale", "no_signal"].includes(outcome)) {
    malformed("outcome", "is not one of human_backed, revoked, stale, no_signal");
  }
  const assuranceLevel = string("assuranceLevel");
  if (assuranceLevel !== undefined && !/^[A-Z0-9+-]{1,8}$/.test(assuranceLevel)) {
    malformed("assuranceLevel", "is not 1 to 8 characters of A-Z 0-9 + -");
  }
  const verifiedAt = time("verifiedAt");
  const hours = raw.get("recheckEveryHours");
  if (hours !== undefined && !(Number.isInteger(hours) && hours >= 1 && hours <= 8760)) {
    malformed("recheckEveryHours", "is not an integer from 1 to 8760");
  }
  if (outcome === "human_backed" && assuranceLevel === undefined) malformed("assuranceLevel", "is missing (required with human_backed)");
  if (outcome !== "no_signal") {
    if (verifiedAt === undefined) malformed("verifiedAt", "is missing (required with this outcome)");
    if (hours === undefined) malformed("recheckEveryHours", "is missing (required with this outcome)");
  }
  const issuedAt = time("issuedAt");
  const keyId = string("keyId");
  if (keyId === undefined) malformed("keyId", "is missing");
  const endpoint = ["chain", "payTo", "resourceUrl"].map((field) => string(field) ?? malformed(field, "is missing"));
  if (issuedAt === undefined) malformed("issuedAt", "is missing");
  if (!/^[0-9a-f]{16}$/.test(keyId)) malformed("keyId", "is not 16 lowercase hex digits");
  if (verifiedAt > issuedAt + MAX_CLOCK_SKEW_SECONDS) malformed("verifiedAt", "is later than issuedAt");
  return { endpoint, outcome, assuranceLevel, verifiedAt, recheckEveryHours: hours, issuedAt };
}

// ---- evaluation (the core's evaluate::Lookup::evaluate) ----

/**
 * The core's network aliases (x402 v1 name, CAIP-2 id): NETWORK_ALIASES in
 * crates/core/src/network.rs, copied in by scripts/package-js.mjs.
 */
const NETWORK_ALIASES = /* NETWORK_ALIASES */ [];
const canonicalChain = (chain) => NETWORK_ALIASES.find(([v1]) => v1 === chain)?.[1] ?? chain;
const sameChain = (a, b) => canonicalChain(a) === canonicalChain(b);
const isEvmAddress = (s) => /^0x[0-9a-fA-F]{40}$/.test(s);
const sameAddress = (a, b) => a === b || (isEvmAddress(a) && isEvmAddress(b) && a.toLowerCase() === b.toLowerCase());

const rfc3339 = (seconds) => new Date(Math.min(Math.max(seconds, 0), 253402300799) * 1000).toISOString().replace(/\.\d+Z$/, "Z");

function withoutVerdict(outcome, reason, detail) {
  const result = { state: UNKNOWN, outcome, freshness: UNKNOWN, signature: "not_checked", reason };
  if (detail) result.detail = detail;
  return result;
}

/** The structured result for what the fetch got, at `now` (seconds). */
function evaluate(options, fetched, now) {
  if (typeof fetched === "string") return withoutVerdict("no_response", fetched === "network" ? "network_error" : fetched);
  const [status, body] = fetched;
  if (status === 404) return withoutVerdict("no_signal", "not_listed");
  if (status !== 200) return withoutVerdict("no_response", "http_status", `HTTP status ${status}`);
  let v;
  try {
    v = readVerdict(body);
  } catch (e) {
    return withoutVerdict("no_response", "malformed", e instanceof Problem ? e.message : "not strict JSON: invalid UTF-8");
  }
  if (v.issuedAt > now + MAX_CLOCK_SKEW_SECONDS) return withoutVerdict("no_response", "malformed", "verdict.issuedAt lies in the future");
  const [chain, payTo, resourceUrl] = v.endpoint;
  if (!sameChain(chain, options.chain) || resourceUrl !== options.resourceUrl || !sameAddress(payTo, options.payTo)) {
    return withoutVerdict("no_response", "endpoint_mismatch");
  }
  const timed = v.verifiedAt !== undefined && v.recheckEveryHours !== undefined;
  const freshness = !timed || v.verifiedAt > now + MAX_CLOCK_SKEW_SECONDS ? UNKNOWN
    : now <= v.verifiedAt + v.recheckEveryHours * 3600 ? "fresh" : "overdue";
  const signature = options.keyed ? "unverifiable" : "not_checked";
  let state = UNKNOWN;
  let reason = v.outcome;
  if (v.outcome === "revoked") {
    state = "revoked";
  } else if (v.outcome === "human_backed") {
    reason = options.strict ? "signature_required"
      : freshness === "overdue" ? "overdue"
      : freshness === UNKNOWN ? "verified_in_future"
      : undefined;
    if (!reason) state = "human-backed";
  }
  const result = { state, outcome: v.outcome, freshness, signature };
  if (v.assuranceLevel !== undefined) result.assuranceLevel = v.assuranceLevel;
  if (v.verifiedAt !== undefined) result.verifiedAt = rfc3339(v.verifiedAt);
  if (v.recheckEveryHours !== undefined) result.recheckEveryHours = v.recheckEveryHours;
  if (reason) result.reason = reason;
  return result;
}

// ---- the request (src/fetch.rs) ----

const inFlight = new Map();

/** `[status, bytes]`, or why there is none: "timeout", "network", "too_large", "redirected". */
async function fetchOnce(url, origin, timeoutMs) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: "GET", credentials: "omit", redirect: "follow", signal: controller.signal,
      headers: { Accept: "application/json" },
    });
    if (response.redirected && !response.url.startsWith(`${origin}/`)) return "redirected";
    if (Number(response.headers.get("content-length")) > MAX_BODY_BYTES) return "too_large";
    const chunks = [];
    let length = 0;
    const reader = response.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true };
      if (chunk.done) break;
      length += chunk.value.length;
      if (length > MAX_BODY_BYTES) {
        reader.cancel().catch(() => {});
        return "too_large";
      }
      chunks.push(chunk.value);
    }
    const body = new Uint8Array(length);
    chunks.reduce((at, chunk) => (body.set(chunk, at), at + chunk.length), 0);
    return [response.status, body];
  } catch {
    return controller.signal.aborted ? "timeout" : "network";
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Fetches, sharing a request in flight for the same URL and timeout. */
function fetchShared(url, origin, timeoutMs) {
  const key = `${timeoutMs} ${url}`;
  if (!inFlight.has(key)) {
    inFlight.set(key, fetchOnce(url, origin, timeoutMs).finally(() => inFlight.delete(key)));
  }
  return inFlight.get(key);
}

// ---- the API ----

/** Looks one endpoint up; resolves to the structured result. Never rejects. */
export async function lookupVerdict(options) {
  try {
    let o;
    try {
      o = readOptions(options);
    } catch (e) {
      return withoutVerdict("no_response", "invalid_input", e instanceof Problem ? e.message : "options must be an object");
    }
    if (o.baseUrl === undefined) return withoutVerdict("no_service", "no_base_url");
    const q = (s) => encodeURIComponent(s);
    const url = `${o.baseUrl}/v0/verdict?chain=${q(o.chain)}&payTo=${q(o.payTo)}&resourceUrl=${q(o.resourceUrl)}`;
    const origin = /^https?:\/\/[^/]*/.exec(o.baseUrl)[0];
    const fetched = await fetchShared(url, origin, o.timeoutMs);
    return evaluate(o, fetched, Math.floor(Date.now() / 1000));
  } catch {
    return withoutVerdict("no_response", "network_error");
  }
}

// ---- the words (the core's text module) ----

const human = (at) => `${at.slice(0, 10)} ${at.slice(11, 16)} UTC`;
const hoursText = (h) => (h % 24 === 0 && h >= 48 ? `${h / 24} days` : `${h} h`);
const sentence = (parts) => (parts.some(Boolean) ? `${parts.filter(Boolean).join("; ")}.` : "");

const WHY_UNKNOWN = {
  overdue: "Re-check overdue: the last verification is older than its promised cadence.",
  stale: "Stale: the service reports the operator's re-check is overdue.",
  signature_invalid: "The verdict's signature failed to verify.",
  signature_required: "Strict mode: the verdict carries no signature verified by a configured key.",
  verified_in_future: "The verdict claims a verification time in the future.",
  no_signal: "No signal: the verification service holds nothing for this endpoint.",
  not_listed: "No signal: the verification service holds nothing for this endpoint.",
  no_base_url: "No verification service is configured.",
  invalid_input: "The badge is misconfigured, so nothing was checked.",
  endpoint_mismatch: "No response: the verdict received was about another endpoint.",
  timeout: "No response: the verification service did not answer in time.",
  malformed: "No response: the verification service sent an invalid verdict.",
  too_large: "No response: the verification service sent too much data.",
};

/** The badge's label for a result. */
export function label(r) {
  if (r.state === "human-backed") return r.assuranceLevel ? `verified · ${r.assuranceLevel}` : "verified";
  return r.state === "revoked" ? "not verified" : UNKNOWN;
}

/** The badge's hover text for a result. */
export function hover(r) {
  const last = r.verifiedAt && `Last verified ${human(r.verifiedAt)}`;
  const cadence = r.recheckEveryHours && `promised to be re-checked every ${hoursText(r.recheckEveryHours)}`;
  const parts = [];
  if (r.state === "human-backed") {
    parts.push("A verified operator backed by a guarantee deposit stands behind this endpoint.", sentence([last, cadence]));
    if (r.signature === "not_checked") parts.push("Signature not checked: no verification key is configured.");
  } else if (r.state === "revoked") {
    parts.push("The attestation for this endpoint was withdrawn or has lapsed.", `${last || "When it was last verified is not known"}.`);
  } else {
    const noVerdict = ["no_service", "no_response"].includes(r.outcome) || r.reason === "not_listed";
    parts.push(WHY_UNKNOWN[r.reason] ?? (r.outcome === "no_response" ? "No response: the verification service could not be reached." : "No verification signal."));
    if (r.reason === "overdue" || r.reason === "stale") parts.push(sentence([last, cadence]));
    if (noVerdict) parts.push("Nothing in the payment flow depends on this badge.");
  }
  if (r.signature === "unverifiable") parts.push("This browser could not check the signature (WebAssembly is unavailable).");
  let text = parts.filter(Boolean).join(" ");
  if (r.detail) text += ` (${r.detail})`;
  return text;
}

/** Renders one badge into `container`; resolves to the state rendered. Never rejects. */
export async function renderBadge(container, options) {
  const host = mount(container);
  if (!host) {
    console.warn("renderBadge: container is not an element");
    return UNKNOWN;
  }
  const result = await lookupVerdict(options);
  if (result.reason === "invalid_input") console.warn(`renderBadge: ${result.detail}`);
  show(host, result.state, label(result), hover(result), result.reason);
  return result.state;
}
