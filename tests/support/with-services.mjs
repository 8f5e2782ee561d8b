// Runs a command with the demo service and the hostile fixtures started, and
// passes their addresses on in the environment:
//   X402_TEST_SERVICE  the reference service (demo registry, www/)
//   X402_TEST_FIXTURES the hostile fixtures
//   X402_TEST_DEMO     the demo configuration (www/demo.json)
//
//   node tests/support/with-services.mjs -- cargo test -p x402-verdict-badge --target wasm32-unknown-unknown --test web
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { startDemo } from "../../scripts/demo.mjs";
import { startFixtures } from "./fixtures.mjs";

const command = process.argv.slice(process.argv.indexOf("--") + 1);
const demo = await startDemo();
const fixtures = await startFixtures();
const env = {
  ...process.env,
  X402_TEST_SERVICE: demo.url,
  X402_TEST_FIXTURES: fixtures.url,
  X402_TEST_DEMO: readFileSync(new URL("../../www/demo.json", import.meta.url), "utf8"),
};
const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
const code = await new Promise((done) => child.once("exit", (c, signal) => done(c ?? (signal ? 1 : 0))));
await Promise.all([demo.stop(), fixtures.stop()]);
process.exit(code);
