// The three engines of the browser tests, from Debian's packages only (never
// a browser download of a tool's own), behind one small page API:
//   chromium  Debian's Chromium, headless, driven by playwright-core;
//   firefox   Debian's Firefox ESR through geckodriver (crates.io);
//   webkit    WebKitGTK's MiniBrowser through WebKitWebDriver.
// Firefox and MiniBrowser run with a window on a private Xvfb display
// (tests/support/display.mjs): headless Firefox never holds the system
// focus, so :focus would never match there, and MiniBrowser has no headless
// mode; each window has a display of its own. Both speak classic WebDriver, which has no init scripts and no
// console events: what a test must see from the start of a page (warnings,
// errors, CSP violations, a feature hidden) comes from the probe the test
// origin puts first in every page (tests/support/origin.mjs).
//
// A page has the subset of Playwright's Page the tests use: goto, evaluate,
// $eval, $$eval, waitForFunction, waitForTimeout, hover, focus, mouse.move,
// keyboard.press, screenshot, close. X402_ENGINES (comma-separated) limits
// the engines a run uses.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { chromium } from "playwright-core";
import { Builder, Key, Origin } from "selenium-webdriver";
import { startDisplay } from "./display.mjs";

export const CHROMIUM_FLAGS = [
  "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update",
  "--no-first-run", "--disable-sync", "--disable-quic",
  // The loopback HTTP/2 fronts' self-signed certificates (tests/support/front.mjs), as acceptInsecureCerts below.
  "--ignore-certificate-errors",
];

/** Every engine, or those X402_ENGINES names. */
export const ENGINES = (process.env.X402_ENGINES ?? "chromium,firefox,webkit").split(",").map((e) => e.trim()).filter(Boolean);

const MINIBROWSER = process.env.MINIBROWSER ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const GECKODRIVER = process.env.GECKODRIVER ?? "geckodriver";

/** Launches `engine`; resolves to a browser with newPage({ viewport, colorScheme }) and close(). */
export function launch(engine = "chromium") {
  if (engine === "chromium") {
    return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_FLAGS, headless: true });
  }
  if (engine === "firefox" || engine === "webkit") return WebDriverBrowser.start(engine);
  throw new Error(`no such engine: ${engine} (chromium, firefox or webkit)`);
}

/** Records the Content-Security-Policy violations of every document `page` loads (Chromium; call before navigating); resolves to a reader of them. */
export async function watchViolations(page) {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      window.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }));
  });
  return () => page.evaluate(() => window.__violations);
}

/** A free loopback port. */
function freePort() {
  return new Promise((done, fail) => {
    const server = createServer().once("error", fail).listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Starts a WebDriver server (geckodriver or WebKitWebDriver) on the display; resolves to { url, stop }. */
async function startDriver(engine, display, env = {}) {
  const port = await freePort();
  const [command, args] = engine === "firefox"
    ? [GECKODRIVER, [`--port=${port}`, "--host=127.0.0.1", "--log=fatal"]]
    : ["WebKitWebDriver", [`--port=${port}`]];
  // Quiet: the browsers chatter on stderr (D-Bus, telemetry); a failure reaches the test through the client.
  const child = spawn(command, args, { stdio: "ignore", env: { ...process.env, DISPLAY: display, ...env } });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((done) => child.once("exit", done));
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/status`);
      break;
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  return { url, stop: () => (child.exitCode === null && child.kill(), exited) };
}

/** Capabilities for a session in `colorScheme` (Firefox: its content override; WebKit follows the GTK theme, set on its driver). */
function capabilities(engine, colorScheme) {
  // The loopback HTTP/2 fronts' self-signed certificates (tests/support/front.mjs).
  if (engine === "webkit") {
    return { browserName: "MiniBrowser", acceptInsecureCerts: true, "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } };
  }
  return {
    browserName: "firefox",
    acceptInsecureCerts: true,
    "moz:firefoxOptions": {
      binary: process.env.FIREFOX ?? "/usr/bin/firefox-esr",
      args: [],
      prefs: {
        "layout.css.prefers-color-scheme.content-override": colorScheme === "dark" ? 0 : 1,
        "app.update.disabledForTesting": true,
        "browser.shell.checkDefaultBrowser": false,
        "datareporting.policy.dataSubmissionEnabled": false,
        "toolkit.telemetry.reportingpolicy.firstRun": false,
      },
    },
  };
}

const KEYS = { Tab: Key.TAB, Escape: Key.ESCAPE, Shift: Key.SHIFT, Enter: Key.ENTER };

/**
 * Firefox or WebKit over classic WebDriver: one session (one window) per colour scheme, started
 * when first asked for, each on a display of its own (the keyboard focus follows the pointer: a
 * second window on one display would take it from the first).
 */
class WebDriverBrowser {
  static async start(engine) {
    const browser = new WebDriverBrowser(engine);
    await browser.session("light");
    return browser;
  }

  constructor(engine) {
    this.engine = engine;
    this.sessions = new Map();
  }

  /** The session for `colorScheme` (WebKit takes it from GTK_THEME, so each scheme has its own driver). */
  session(colorScheme) {
    if (!this.sessions.has(colorScheme)) {
      this.sessions.set(colorScheme, (async () => {
        const env = this.engine === "webkit" && colorScheme === "dark" ? { GTK_THEME: "Adwaita:dark" } : {};
        const display = await startDisplay();
        const server = await startDriver(this.engine, display.name, env);
        const driver = await new Builder().usingServer(server.url).withCapabilities(capabilities(this.engine, colorScheme)).build();
        await driver.manage().setTimeouts({ script: 60000, pageLoad: 60000 });
        return { driver, server, display, viewport: null };
      })());
    }
    return this.sessions.get(colorScheme);
  }

  async newPage({ viewport = { width: 1280, height: 720 }, colorScheme = "light" } = {}) {
    const session = await this.session(colorScheme);
    const page = new WebDriverPage(this.engine, session.driver);
    if (JSON.stringify(session.viewport) !== JSON.stringify(viewport)) {
      await page.resize(viewport);
      session.viewport = viewport;
    }
    return page;
  }

  async close() {
    for (const pending of this.sessions.values()) {
      const { driver, server, display } = await pending;
      await driver.quit().catch(() => {});
      await server.stop();
      await display.stop();
    }
  }
}

/**
 * The script WebDriver runs for `fn(arg)`: its promise awaited, its value back as JSON. The
 * function's source is part of the script's text (a driver's script is exempt from the page's
 * CSP; an eval() in it would not be).
 */
const script = (fn) => `const [arg, done] = arguments;
Promise.resolve().then(() => (${fn})(arg)).then((value) => done({ value: value === undefined ? null : value }), (e) => done({ error: String((e && e.stack) || e) }));`;

class WebDriverPage {
  constructor(engine, driver) {
    this.engine = engine;
    this.driver = driver;
    this.mouse = { move: (x, y) => this.driver.actions().move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT }).perform() };
    this.keyboard = {
      press: async (chord) => {
        const keys = chord.split("+").map((k) => KEYS[k] ?? k);
        let actions = this.driver.actions();
        for (const k of keys) actions = actions.keyDown(k);
        for (const k of keys.reverse()) actions = actions.keyUp(k);
        await actions.perform();
      },
    };
  }

  /** Sizes the window so that its viewport is `width` × `height` CSS pixels. */
  async resize({ width, height }) {
    for (let i = 0; i < 5; i++) {
      const [innerWidth, innerHeight] = await this.evaluate(() => [window.innerWidth, window.innerHeight]);
      if (innerWidth === width && innerHeight === height) return;
      const rect = await this.driver.manage().window().getRect();
      // The window's frame around the viewport, read anew each time: none while a new window is not
      // laid out yet (WebKit once reported a rect smaller than its viewport, and a negative size followed).
      const frame = (outer, inner) => Math.max(0, outer - inner);
      await this.driver.manage().window().setRect({ x: 0, y: 0, width: width + frame(rect.width, innerWidth), height: height + frame(rect.height, innerHeight) });
    }
  }

  goto(url) {
    return this.driver.get(url);
  }

  async evaluate(fn, arg) {
    const { value, error } = await this.driver.executeAsyncScript(script(fn), arg === undefined ? null : arg);
    if (error) throw new Error(`in ${this.engine}: ${error}`);
    return value;
  }

  $eval(selector, fn, arg) {
    return this.evaluate(`([s, a]) => { const el = document.querySelector(s); if (!el) throw new Error("no element matches " + s); return (${fn})(el, a); }`, [selector, arg ?? null]);
  }

  $$eval(selector, fn, arg) {
    return this.evaluate(`([s, a]) => (${fn})([...document.querySelectorAll(s)], a)`, [selector, arg ?? null]);
  }

  async waitForFunction(fn, arg, { timeout = 30000 } = {}) {
    const until = Date.now() + timeout;
    for (;;) {
      const value = await this.evaluate(fn, arg);
      if (value) return value;
      if (Date.now() > until) throw new Error(`in ${this.engine}: waitForFunction timed out after ${timeout} ms: ${String(fn).slice(0, 200)}`);
      await this.waitForTimeout(100);
    }
  }

  waitForTimeout(ms) {
    return new Promise((done) => setTimeout(done, ms));
  }

  /** The element `selector` names; `host >> inner` looks inside host's shadow root. */
  static find = `(selector) => selector.split(" >> ").reduce((scope, s, i) => (i ? scope.shadowRoot : scope).querySelector(s), document)`;

  async hover(selector) {
    const [x, y] = await this.evaluate(`(s) => { const r = (${WebDriverPage.find})(s).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }`, selector);
    await this.mouse.move(x, y);
  }

  focus(selector) {
    return this.evaluate(`(s) => (${WebDriverPage.find})(s).focus()`, selector);
  }

  async screenshot({ path }) {
    writeFileSync(path, Buffer.from(await this.driver.takeScreenshot(), "base64"));
  }

  /** Leaves the page (the session's one window stays, for the next). */
  async close() {
    await this.driver.actions().clear().catch(() => {});
    await this.driver.get("about:blank");
  }
}
