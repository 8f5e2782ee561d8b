// The browser extension (pkg-extension/) loaded into each engine, behind one
// small API for tests/extension/: settings(values) through its settings
// page, open(url) in the tab the pages load in one after another
// (resolving to its id as the extension knows it), aside(urls) (other tabs
// loading those pages meanwhile, closed by aside([])), toolbar(tabId) (the action's badge text, title and colour
// for the tab), popup(tabId) (the popup's page for the tab: its text and
// a screenshot), close().
//
//   chromium  Debian's Chromium, headless (new mode), the unpacked
//             extension in a persistent profile (playwright-core's
//             launchPersistentContext); the toolbar read through the
//             extension's own pages (chrome.action);
//   firefox   Debian's Firefox ESR (or FIREFOX) through geckodriver with a window on a
//             private Xvfb display, the unpacked extension a temporary add-on
//             (geckodriver's addon install, by path); its extension pages
//             opened and the toolbar read from the browser's own window
//             (its button's attributes; Marionette's chrome context, geckodriver
//             --allow-system-access): WebDriver cannot navigate to a
//             moz-extension: page, and its scripts there see no `browser`.
//
// The popup is its page opened in a tab of its own, popup.html?tab=N, as a
// user may open it; its content is what the toolbar's popup shows.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { Builder } from "selenium-webdriver";
import { Command } from "selenium-webdriver/lib/command.js";
import { CHROMIUM_FLAGS } from "./browser.mjs";
import { startDisplay } from "./display.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;
/** The unpacked extension of each engine. */
export const EXTENSION = { chromium: join(ROOT, "pkg-extension/chromium"), firefox: join(ROOT, "pkg-extension/firefox") };
/** The id Firefox knows the extension by (scripts/package-extension.mjs), and the UUID of its pages' origin in the tests. */
const GECKO_ID = "extension@x402-verdict";
const GECKO_UUID = "5e2b7f0c-4a02-4d0b-9c3f-4b2f40c2a402";
const GECKODRIVER = process.env.GECKODRIVER ?? "geckodriver";

/**
 * Launches `engine` with the extension; resolves to the API above. With
 * `managed`, an organization's preset of the settings (storage.managed):
 * Firefox reads it from the user's managed-storage manifest, which the
 * browser gets in a home folder of its own; Chromium reads policies from
 * /etc alone, which a test does not write.
 */
export function launchWithExtension(engine, { managed } = {}) {
  if (managed && engine !== "firefox") throw new Error(`no managed settings for ${engine} in the tests (firefox only)`);
  if (engine === "chromium") return ChromiumExtension.start();
  if (engine === "firefox") return FirefoxExtension.start(managed);
  throw new Error(`no extension test for ${engine} (chromium or firefox)`);
}

/** The settings page's form filled and saved, resolving to what it says (Firefox's WebDriver runs it there). */
const SAVE = `
  const [values, done] = arguments;
  const $ = (id) => document.getElementById(id);
  const ready = () => $("save").textContent !== "" ? Promise.resolve() : new Promise((ok) => setTimeout(() => ready().then(ok), 50));
  ready().then(() => {
    $("base-url").value = values.baseUrl ?? "";
    $("public-key").value = values.publicKey ?? "";
    $("root-key").value = values.rootKey ?? "";
    $("strict").checked = Boolean(values.strict);
    $("log-key").value = values.logKey ?? "";
    $("witness-keys").value = values.witnessKeys ?? "";
    $("witness-quorum").value = values.witnessQuorum ?? "";
    $("transparency").value = values.transparency ?? "off";
    const before = $("status").textContent;
    $("save").click();
    const wait = () => $("status").textContent !== before ? done($("status").textContent) : setTimeout(wait, 50);
    wait();
  });
`;

/** The popup's text, each badge's label (in its shadow root) after its host's text. */
const VIEW_TEXT = `() => {
  for (const host of document.querySelectorAll("x402-verdict-view")) host.dataset.text = host.shadowRoot.querySelector(".label").textContent;
  const text = document.getElementById("view").innerText;
  const labels = [...document.querySelectorAll("x402-verdict-view")].map((host) => host.dataset.text);
  return [text, ...labels].join("\\n");
}`;

/** Waits until the popup page has drawn (its view holds a section), resolving to its text (Firefox). */
const DRAWN = `
  const done = arguments[arguments.length - 1];
  const wait = () => document.querySelector("#view section") ? done((${VIEW_TEXT})()) : setTimeout(wait, 50);
  wait();
`;

class ChromiumExtension {
  static async start() {
    const profile = mkdtempSync(join(tmpdir(), "x402-extension-"));
    const dir = EXTENSION.chromium;
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      headless: true,
      args: [...CHROMIUM_FLAGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`],
    });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"));
    const self = new ChromiumExtension();
    // What its service worker writes to the console as warnings and errors (there should be none), also once restarted.
    self.console = [];
    const listen = (w) => w.on("console", (message) => ["warning", "error"].includes(message.type()) && self.console.push(message.text()));
    listen(worker);
    context.on("serviceworker", listen);
    self.engine = "chromium";
    self.context = context;
    self.origin = `chrome-extension://${new URL(worker.url()).host}`;
    // An extension page of its own, from which chrome.action and chrome.tabs are read, and the tab the pages load in, one after another.
    self.inside = await context.newPage();
    await self.inside.goto(`${self.origin}/options.html`);
    self.page = await context.newPage();
    return self;
  }

  /** The extension's load errors and warnings, as chrome://extensions lists them, and its service worker's console warnings and errors. */
  async problems() {
    const page = await this.context.newPage();
    await page.goto("chrome://extensions/");
    const id = new URL(this.origin).host;
    const found = await page.evaluate(async (id) => {
      const info = await chrome.developerPrivate.getExtensionInfo(id);
      return [...info.manifestErrors, ...info.runtimeErrors, ...info.installWarnings].map((e) => e.message ?? String(e));
    }, id);
    await page.close();
    return [...found, ...this.console];
  }

  async settings(values) {
    const page = await this.context.newPage();
    await page.goto(`${this.origin}/options.html`);
    await page.waitForFunction(() => document.getElementById("save").textContent !== "");
    await page.fill("#base-url", values.baseUrl ?? "");
    await page.fill("#public-key", values.publicKey ?? "");
    await page.fill("#root-key", values.rootKey ?? "");
    await page.setChecked("#strict", Boolean(values.strict));
    await page.fill("#log-key", values.logKey ?? "");
    await page.fill("#witness-keys", values.witnessKeys ?? "");
    await page.fill("#witness-quorum", values.witnessQuorum ?? "");
    await page.selectOption("#transparency", values.transparency ?? "off");
    await page.click("#save");
    await page.waitForFunction(() => document.getElementById("status").textContent !== "");
    const status = await page.textContent("#status");
    await page.close();
    return status;
  }

  async open(url) {
    await this.page.goto(url);
    return this.inside.evaluate(async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)?.id, url);
  }

  /** Runs `script` (a page's own fetches, say) in the tab's page. */
  run(tabId, script) {
    return this.page.evaluate(`(${script})()`);
  }

  /** Other tabs, each loading one of `urls` (not waited for); those opened before are closed. */
  async aside(urls) {
    await Promise.all((this.others ?? []).map((page) => page.close()));
    this.others = await Promise.all(urls.map(() => this.context.newPage()));
    this.others.forEach((page, i) => page.goto(urls[i]).catch(() => {}));
  }

  toolbar(tabId) {
    return this.inside.evaluate(async (tabId) => ({
      text: await chrome.action.getBadgeText({ tabId }),
      title: await chrome.action.getTitle({ tabId }),
      colour: await chrome.action.getBadgeBackgroundColor({ tabId }),
    }), tabId);
  }

  async popup(tabId, screenshot) {
    const page = await this.context.newPage();
    await page.setViewportSize({ width: 380, height: 600 });
    await page.goto(`${this.origin}/popup.html?tab=${tabId}`);
    await page.waitForSelector("#view section");
    const text = await page.evaluate(`(${VIEW_TEXT})()`);
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
    await page.close();
    return text;
  }

  /** Stops the extension's service worker, as the browser stops an idle one; resolves once it is gone. */
  async stopWorker() {
    const cdp = await this.context.newCDPSession(this.inside);
    try {
      const stopped = new Promise((done) => cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
        if (versions.some((v) => v.scriptURL.startsWith(this.origin) && v.runningStatus === "stopped")) done();
      }));
      await cdp.send("ServiceWorker.enable");
      await cdp.send("ServiceWorker.stopAllWorkers");
      await stopped;
    } finally {
      await cdp.detach();
    }
  }

  /** The extension's storage.session bytes (each tab's record). */
  sessionBytes() {
    return this.inside.evaluate(() => chrome.storage.session.getBytesInUse(null));
  }

  close() {
    return this.context.close();
  }
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

class FirefoxExtension {
  static async start(managed) {
    const display = await startDisplay();
    const port = await freePort();
    const env = { ...process.env, DISPLAY: display.name };
    if (managed) {
      // Firefox reads an add-on's storage.managed from ~/.mozilla/managed-storage/<its id>.json.
      env.HOME = mkdtempSync(join(tmpdir(), "x402-verdict-managed-"));
      const folder = join(env.HOME, ".mozilla/managed-storage");
      mkdirSync(folder, { recursive: true });
      const manifest = { name: GECKO_ID, description: "x402-verdict settings preset by policy", type: "storage", data: { settings: managed } };
      writeFileSync(join(folder, `${GECKO_ID}.json`), JSON.stringify(manifest));
    }
    const driverProcess = spawn(GECKODRIVER, [`--port=${port}`, "--host=127.0.0.1", "--log=fatal", "--allow-system-access"], {
      stdio: "ignore", env,
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        await fetch(`${url}/status`);
        break;
      } catch (error) {
        if (i > 100 || driverProcess.exitCode !== null) throw error;
        await new Promise((ok) => setTimeout(ok, 100));
      }
    }
    const driver = await new Builder().usingServer(url).withCapabilities({
      browserName: "firefox",
      "moz:firefoxOptions": {
        binary: process.env.FIREFOX ?? "/usr/bin/firefox-esr",
        args: [],
        prefs: {
          "extensions.webextensions.uuids": JSON.stringify({ [GECKO_ID]: GECKO_UUID }),
          "app.update.disabledForTesting": true,
          "browser.shell.checkDefaultBrowser": false,
          "datareporting.policy.dataSubmissionEnabled": false,
          "toolkit.telemetry.reportingpolicy.firstRun": false,
        },
      },
    }).build();
    // The unpacked folder, by its path, installed where it lies (as `web-ext run` does). Not
    // `driver.installAddon`: it zips the folder and sends it, and Firefox 140's Marionette deletes
    // the file it writes that to as soon as the add-on is installed (153 keeps it until uninstall);
    // a content process opens the add-on's file afresh, so content.js then fails to load there
    // ("Unable to load script") while the extension's pages, whose process opened it before, load.
    await driver.execute(new Command("install addon").setParameter("path", EXTENSION.firefox).setParameter("temporary", true));
    const self = new FirefoxExtension();
    Object.assign(self, { engine: "firefox", driver, display, driverProcess, origin: `moz-extension://${GECKO_UUID}` });
    self.main = await driver.getWindowHandle();
    // The action's button, pinned to the toolbar as a user pins it, so that its badge and title are read where they are shown.
    await self.chrome(`CustomizableUI.addWidgetToArea(arguments[0], CustomizableUI.AREA_NAVBAR);`, self.widget());
    return self;
  }

  /** The id of the action's toolbar item in the browser's window (its button's is `…-BAP`). */
  widget(part = "browser-action") {
    return `${GECKO_ID.toLowerCase().replace(/[^a-z0-9_-]/g, "_")}-${part}`;
  }

  /** Runs `script` in the browser's own window (Marionette's chrome context). */
  async chrome(script, ...args) {
    await this.driver.setContext("chrome");
    try {
      return await this.driver.executeScript(script, ...args);
    } finally {
      await this.driver.setContext("content");
    }
  }

  /** Opens the extension's page `path` in a new tab (the browser's own window may open it), switched to. */
  async extensionPage(path) {
    const before = await this.driver.getAllWindowHandles();
    await this.chrome(`gBrowser.selectedTab = gBrowser.addTab(arguments[0], { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() });`, `${this.origin}/${path}`);
    const handle = (await this.driver.getAllWindowHandles()).find((h) => !before.includes(h));
    await this.driver.switchTo().window(handle);
    await this.driver.wait(async () => (await this.driver.executeScript("return document.readyState")) === "complete", 10000);
    return handle;
  }

  /** Closes the tab switched to, back to the main one. */
  async closeTab() {
    await this.driver.close();
    await this.driver.switchTo().window(this.main);
  }

  async problems() {
    return [];
  }

  async settings(values) {
    await this.extensionPage("options.html");
    const status = await this.driver.executeAsyncScript(SAVE, values);
    await this.closeTab();
    return status;
  }

  async open(url) {
    await this.driver.switchTo().window(this.main);
    await this.driver.get(url);
    return this.chrome(`
      const { ExtensionParent } = ChromeUtils.importESModule("resource://gre/modules/ExtensionParent.sys.mjs");
      return ExtensionParent.apiManager.global.tabTracker.getId(gBrowser.selectedTab);
    `);
  }

  /** Other tabs, in the background, each loading one of `urls`; those opened before are closed. */
  aside(urls) {
    return this.chrome(`
      for (const tab of window.x402Aside ?? []) gBrowser.removeTab(tab);
      const principal = Services.scriptSecurityManager.getSystemPrincipal();
      window.x402Aside = arguments[0].map((url) => gBrowser.addTab(url, { triggeringPrincipal: principal }));
    `, urls);
  }

  run(tabId, script) {
    return this.driver.executeAsyncScript(`const done = arguments[0]; Promise.resolve((${script})()).then(done, (e) => done(String(e)));`);
  }

  /**
   * The button's badge text, title and colour as the browser's action code
   * writes them on it (its `badge`, `tooltiptext` and `badgeStyle`
   * attributes), the same from 140 to 153, however each draws them.
   */
  toolbar() {
    return this.chrome(`
      const button = document.getElementById(arguments[0]);
      const colour = /background-color: ([^;]*)/.exec(button.getAttribute("badgeStyle") ?? "")?.[1];
      return { text: button.getAttribute("badge") ?? "", title: button.getAttribute("tooltiptext"), colour };
    `, this.widget("BAP"));
  }

  async popup(tabId, screenshot) {
    await this.extensionPage(`popup.html?tab=${tabId}`);
    await this.driver.manage().window().setRect({ width: 420, height: 720 });
    const text = await this.driver.executeAsyncScript(DRAWN);
    if (screenshot) writeFileSync(screenshot, await this.driver.takeScreenshot(), "base64");
    await this.closeTab();
    return text;
  }

  async close() {
    await this.driver.quit().catch(() => {});
    this.driverProcess.kill();
    await this.display.stop();
  }
}

