// The guard's shared table (crates/core/tests/vectors/guard/policy.json),
// fed to the x402-verdict package's engine: what an agent's policy
// function's answer means (policyAnswered, which the guard asks after the
// function answered or threw) and the order the options are handed to the
// client in (rankOptions, the guard's registerPolicy). The core's tests and
// the Python package's (tests/python/test_policy.py) read the same table.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { AGENT_PACKAGE } from "../support/package.mjs";

const { engine } = await import(`${AGENT_PACKAGE}engine.js`);
const table = JSON.parse(readFileSync(new URL("../../crates/core/tests/vectors/guard/policy.json", import.meta.url), "utf8"));

/** An answer of the table as JavaScript writes it. */
function answerOf({ kind, value, ...rest }) {
  const reason = "reason" in rest ? { reason: rest.reason } : {};
  switch (kind) {
    case "true": return true;
    case "false": return false;
    case "none": return null;
    case "value": return value;
    case "abort": return { abort: true, ...reason };
    case "reason-only": return reason;
    case "abort-false": return { abort: false, ...reason };
    case "throw": return new Error("the policy failed");
    default: throw new Error(`an answer of no known kind: ${kind}`);
  }
}

test("every policy answer means what the shared table says", () => {
  assert.ok(table.answers.length >= 10);
  const result = { state: "unknown" };
  for (const { name, answer, pays, refusal } of table.answers) {
    const check = { result, pays: true, preference: 1, refusal: table.check };
    const decided = engine.policyAnswered(check, answerOf(answer));
    assert.deepEqual(decided, { result, pays, preference: 1, refusal: refusal ?? table.check }, name);
    // The check asked about is left as it was.
    assert.equal(check.pays, true, name);
  }
  // undefined, as a function that returns nothing answers, is no answer either.
  assert.equal(engine.policyAnswered({ pays: true, refusal: table.check }, undefined).pays, false);
});

test("every option order is the shared table's", () => {
  for (const { name, options, order } of table.rank) {
    const checks = options.map(([preference, pays]) => ({ preference, pays, refusal: "" }));
    assert.deepEqual(engine.rankOptions(checks), order, name);
  }
});
