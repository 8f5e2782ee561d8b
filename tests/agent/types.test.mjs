// The x402-verdict examples of the README and docs/agents.md compile under
// `tsc --strict` against the package's types (pkg-agent/index.d.ts) and the
// official client's own, as a TypeScript user would write them (`account`,
// the agent's viem account, declared; the libraries' own .d.ts files are not
// checked).
import { test } from "node:test";
import assert from "node:assert/strict";
import { AGENT_PACKAGE } from "../support/package.mjs";
import { compileExamples } from "../support/typescript.mjs";

test("the x402-verdict examples of the docs compile under tsc --strict", () => {
  const compiled = compileExamples({
    pages: ["README.md", "docs/agents.md"], name: "x402-verdict", types: `${AGENT_PACKAGE}index.d.ts`, folder: "agent-types",
    prelude: 'declare const account: import("viem/accounts").PrivateKeyAccount;\n',
  });
  assert.ok(compiled >= 3, "the README's example and docs/agents.md's");
});
