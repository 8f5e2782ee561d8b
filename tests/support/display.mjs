// A private X display for the engines that run with a window (Firefox,
// MiniBrowser): Xvfb picks a free display number itself (-displayfd), so
// parallel runs and other users' displays never collide. The screen is
// smaller than any window the tests open: there is no window manager, so the
// keyboard focus follows the pointer (X's PointerRoot), which rests at the
// screen's centre, inside the window at its top-left corner. Pages render
// whole all the same (screenshots are of the page, not of the screen).
import { spawn } from "node:child_process";

/** Starts Xvfb; resolves to { name (":N"), stop }. */
export function startDisplay() {
  const child = spawn(process.env.XVFB ?? "Xvfb", ["-displayfd", "3", "-screen", "0", "400x300x24", "-nolisten", "tcp"], {
    stdio: ["ignore", "ignore", "ignore", "pipe"],
  });
  const exited = new Promise((done) => child.once("exit", done));
  return new Promise((done, fail) => {
    let out = "";
    child.once("error", fail);
    child.once("exit", (code) => fail(new Error(`Xvfb exited with ${code} before it named a display`)));
    child.stdio[3].on("data", (chunk) => {
      out += chunk;
      if (!out.includes("\n")) return;
      done({ name: `:${out.trim()}`, stop: () => (child.exitCode === null && child.kill(), exited) });
    });
  });
}
