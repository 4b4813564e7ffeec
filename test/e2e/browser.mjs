// Debian chromium driven by playwright-core: runs an extensionTestsPath module inside code-server
// (payload URL + window.codeAutomationExit, as VS Code's own browser tests do) and opens pages
// for the screenshots. Every browser gets a throwaway profile with its XDG dirs inside it.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** A fresh Chromium (persistent context on a temp profile under `dir`); close() removes the profile. */
export async function launch(dir, viewport = { width: 1400, height: 860 }) {
  const profile = mkdtempSync(join(dir, "chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    viewport,
    env: { ...process.env, XDG_CACHE_HOME: join(profile, "cache"), XDG_CONFIG_HOME: join(profile, "config") },
    args: ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The console text of an extension-host log line, without the workbench's `%c INFO color: …` prefix. */
function consoleText(message) {
  return message.text().replace(/^%c\s*(\w+)\s+color:\s*#?\w+\s*/, "$1 ");
}

/**
 * Runs `testsPath` (a module exporting `run()`) in the extension host of a workbench opened on
 * `folder`. Prints the tests' `TEST` lines and errors as they come; resolves to the exit code.
 */
export async function runExtensionTests({ url, dir, folder, devPath, testsPath, timeoutMs = 240_000, log = () => {} }) {
  const { host } = new URL(url);
  const remote = (path) => `vscode-remote://${host}${path}`;
  const payload = [
    ["extensionDevelopmentPath", remote(devPath)],
    ["extensionTestsPath", remote(testsPath)],
    ["skipWelcome", "true"],
  ];
  const target = `${url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  const browser = await launch(dir);
  let code = 2;
  let finish;
  const done = new Promise((resolve) => {
    finish = resolve;
  });
  let timer;
  try {
    await browser.page.exposeFunction("codeAutomationExit", (exitCode) => {
      code = exitCode;
      finish();
    });
    browser.page.on("console", (message) => {
      const text = consoleText(message);
      log(text);
      // the suites' TEST lines, and errors thrown from a suite (the workbench's own noise stays in the log)
      if (/^(\w+ )?TEST /.test(text)) console.log(`  ${text.split("\n")[0].replace(/^\w+ TEST/, "TEST")}`);
      else if (/^ERR /.test(text) && /test[\\/]e2e[\\/]suite/.test(text)) console.log(`  ${text.split("\n").slice(0, 12).join("\n  ")}`);
    });
    browser.page.on("pageerror", (error) => log(`pageerror: ${error.message}`));
    // Past Playwright's 30 s: on a loaded 2-core machine the workbench's first load took longer.
    await browser.page.goto(target, { timeout: Number(process.env.TURNLENS_E2E_UI_TIMEOUT_MS) || 90_000 });
    await Promise.race([
      done,
      new Promise((resolve) => {
        timer = setTimeout(() => {
          console.log(`  TIMEOUT: no result after ${timeoutMs / 1000} s`);
          resolve();
        }, timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await browser.close();
  }
  return code;
}
