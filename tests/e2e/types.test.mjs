// The package examples of the README and docs/embedding.md compile under
// `tsc --strict` against the package's types (pkg/index.d.ts), as a
// TypeScript user would write them.
import { test } from "node:test";
import { PACKAGE } from "../support/package.mjs";
import { compileExamples } from "../support/typescript.mjs";

test("the package examples of the docs compile under tsc --strict", () => {
  compileExamples({ pages: ["README.md", "docs/embedding.md"], name: "x402-verdict-badge", types: `${PACKAGE}index.d.ts`, folder: "types" });
});
