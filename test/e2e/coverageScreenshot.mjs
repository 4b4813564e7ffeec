// docs/images/coverage-view.png: Run with Coverage on examples/summarize's test file in code-server,
// then the Test Coverage view and summarize.ts with its coverage shown: the file's percentage is its
// line coverage (the CLI's figure, 83.33%: `prepare` runs only from the command line), the test
// file is not in the view, and the reader's open call has its outcomes as branches (in the inline
// coverage). Drives the workbench in Chromium as screenshots.mjs does; waits for what it shows.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, workbench } from "./workbench.mjs";

const PICTURE = "coverage-view.png";

/** Runs a command of the palette by its title. */
async function command(page, title) {
  await page.keyboard.press("F1");
  await page.locator(".quick-input-widget input").fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: title }).waitFor(WAIT);
  await page.keyboard.press("Enter");
}

export async function takeCoverageScreenshot({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  mkdirSync(join(folder, ".vscode"), { recursive: true });
  writeFileSync(
    join(folder, ".vscode", "settings.json"),
    `${JSON.stringify({ "testing.automaticallyOpenPeekView": "never", "testing.automaticallyOpenTestResults": "neverOpen", "editor.stickyScroll.enabled": false }, null, 2)}\n`,
  );
  // The CLI's line figure for the same file: what the view must show.
  const cli = spawnSync(
    process.execPath,
    [join(import.meta.dirname, "../../dist/cli.mjs"), "test", "summarize", "--coverage", "--coverage.reporter", "text", "--coverage.reporter", "none"],
    { cwd: folder, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } },
  );
  const row = /summarize\.ts\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*[\d.]+\s*\|\s*([\d.]+)/.exec(cli.stdout);
  if (!row?.[1]) return { ok: false, error: `the CLI printed no line figure for summarize.ts: ${cli.stdout.slice(-800)} ${cli.stderr.slice(-400)}` };
  const percent = row[1];
  say(`  CLI: summarize.ts ${percent}% lines`);

  const browser = await launch(dir, { width: 1400, height: 900 });
  const { page } = browser;
  const { openFile, editorText } = workbench(page);
  let stage = "starting";
  try {
    await openWorkspace(page, url, folder, say);

    stage = "the test file's first run";
    await openFile("summarize/summarize.test.ts");
    await page.locator(".editor-group-container.active .codelens-decoration", { hasText: /✓/ }).first().waitFor(WAIT);

    stage = "Run with Coverage";
    await command(page, "Run Tests with Coverage in Current File");

    stage = "the Test Coverage view";
    const sidebar = page.locator(".part.sidebar");
    const workflowRow = sidebar.locator(".monaco-list-row", { hasText: "summarize.ts" }).filter({ hasNotText: "test" });
    await untilVisible(page, workflowRow.filter({ hasText: `${percent}%` }).first(), () => command(page, "Focus on Test Coverage View"));
    const rows = (await sidebar.locator(".monaco-list-row").allInnerTexts()).map((text) => text.replace(/\s+/g, " ").trim());
    say(`  Test Coverage view: ${rows.join(" | ")}`);
    if (rows.some((text) => text.includes("summarize.test.ts"))) throw new Error(`the test file is in the coverage view: ${rows.join(" | ")}`);

    stage = "summarize.ts with its coverage";
    await openFile("summarize/summarize.ts");
    await editorText(/wf\.agents\.open/)
      .first()
      .waitFor(WAIT);
    await command(page, "Test: Show Inline Coverage").catch(() => {});
    await page.keyboard.press("Escape");
    // The gutter marks the lines that ran and the one that did not (prepare).
    const gutter = page.locator(".editor-group-container.active [class*='coverage-deco']");
    await gutter.first().waitFor(WAIT);
    const classes = await gutter.evaluateAll((nodes) => [...new Set(nodes.flatMap((node) => [...node.classList].filter((name) => name.includes("coverage"))))]);
    say(`  coverage decorations: ${classes.join(", ")}`);
    if (!classes.some((name) => /miss/.test(name)) || !classes.some((name) => /hit/.test(name)))
      throw new Error(`no run and missed lines both marked: ${classes.join(", ")}`);
    await painted(page);
    await page.screenshot({ path: join(out, PICTURE) });
    say(`  wrote docs/images/${PICTURE}`);
    return { ok: true, files: [PICTURE] };
  } catch (error) {
    return await failedAt(page, logs, "coverage-screenshot-failure.png", stage, error, []);
  } finally {
    await browser.close();
  }
}

/** Waits for `shown`; once, after a while, asks with `act` (the view may stay closed). */
async function untilVisible(page, shown, act) {
  try {
    await shown.waitFor({ timeout: 30_000 });
  } catch {
    await act();
    await shown.waitFor(WAIT);
  }
  await page.mouse.move(900, 300);
}
