// Helpers for driving the MCP server: its Streamable HTTP endpoint
// (`mcp --listen`), a pinned revision for the official SDK's client, the
// 2026-07-28 request `_meta`, and a verification service that never answers.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { BIN } from "../../scripts/demo.mjs";

/** The environment without any VERIFICATION_* variable of the caller. */
export const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("VERIFICATION_")));

/** Starts `mcp --listen 127.0.0.1:0` (plus `args`); resolves to { url, base, stop }. */
export async function listen(env = {}, args = []) {
  const child = spawn(BIN, ["mcp", "--listen", "127.0.0.1:0", ...args], { env: { ...cleanEnv(), RUST_LOG: "error", ...env }, stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", (line) => resolve(line.replace(/^listening on /, "")));
    child.once("exit", (code) => reject(new Error(`mcp --listen exited with ${code}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill("SIGTERM");
    const [code] = await once(child, "exit");
    return code;
  };
  return { url, base: url.replace(/\/mcp$/, ""), stop };
}

/**
 * Makes an SDK transport ask `initialize` for `revision` (the SDK 1.x client
 * always asks for its newest); the SDK accepts every revision up to that.
 */
export function pinRevision(transport, revision) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    send(message.method === "initialize" ? { ...message, params: { ...message.params, protocolVersion: revision } } : message, options);
  return transport;
}

/** The `_meta` every 2026-07-28 request carries. */
export const META_2026 = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
};

/** A verification service that accepts connections and never answers; counts opens and closes. */
export async function startSilentService() {
  const counts = { opened: 0, closed: 0 };
  const sockets = new Set();
  const server = createServer((socket) => {
    counts.opened++;
    sockets.add(socket);
    socket.on("data", () => {});
    socket.on("close", () => { counts.closed++; sockets.delete(socket); });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const until = async (what, test) => {
    const deadline = Date.now() + 20000;
    while (!test(counts)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    counts,
    until,
    stop: () => { for (const s of sockets) s.destroy(); return new Promise((r) => server.close(r)); },
  };
}
