// The run timeline end to end (docs/timeline.md): in code-server, the "Timeline" lens of
// examples/feature-delivery's messaging test opens the webview, and a click on the reviewer's first
// turn opens the answer(...) that met it (the active editor's file and line are checked);
// docs/images/timeline.png. Then the HTML that `turnlens test --timeline` writes opens in Chromium
// with no console error; docs/images/timeline-html.png. Waits for what it shows, never sleeps.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, workbench } from "./workbench.mjs";

const TEST = "a reviewer asks the planner to change the doc, and reviews once it replied";

/** 1-based line and column of `call` on the first line of `file` that holds `text`. */
function siteIn(file, text, call) {
  const lines = readFileSync(file, "utf8").split("\n");
  const index = lines.findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${file} has no line with ${text}`);
  return { line: index + 1, column: lines[index].indexOf(call) + 1 };
}

export async function checkTimeline({ url, dir, folder, root, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  const files = [];
  const checks = [];
  let stage = "starting";
  let browser = await launch(dir, { width: 1500, height: 900 });
  let { page } = browser;
  const paint = () => painted(page);
  try {
    await openWorkspace(page, url, folder, say);

    stage = "the feature-delivery test file's run";
    await workbench(page).openFile("feature-delivery/workflow.test.ts");
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });

    stage = "the Timeline lens";
    // Each test that ran gets one (the editor draws those on screen); the second is the messaging test's.
    const lenses = page.locator(".editor-group-container.active .codelens-decoration a", { hasText: /^Timeline$/ });
    await lenses.nth(1).waitFor(WAIT);
    await lenses.nth(1).click();

    stage = "the timeline webview";
    const webview = page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");
    const box = webview.locator('g.box[data-box="1"]');
    await box.waitFor(WAIT);
    await webview.locator("h1", { hasText: TEST }).waitFor(WAIT);
    await webview.locator("g.arrow.kind-question", { hasText: "m1 asks: name the cache" }).waitFor(WAIT);
    await paint();
    await page.screenshot({ path: join(out, "timeline.png") });
    files.push("timeline.png");
    say("  wrote docs/images/timeline.png");

    stage = "a click on the reviewer's first turn";
    await box.click();
    const expected = siteIn(join(folder, "feature-delivery", "workflow.test.ts"), "answer(VERDICT, async (turn) => {", "answer(");
    const active = page.locator(".editor-group-container.active");
    await active.locator(".tab.active", { hasText: "workflow.test.ts" }).waitFor(WAIT);
    await active.locator(".breadcrumbs-control", { hasText: "feature-delivery" }).waitFor(WAIT);
    await page.locator(".statusbar-item", { hasText: `Ln ${expected.line}, Col ${expected.column}` }).waitFor(WAIT);
    checks.push(`the click opened feature-delivery/workflow.test.ts at Ln ${expected.line}, Col ${expected.column}`);
    // The workflow's call that asked the turn opened beside, in the third group.
    const asked = siteIn(join(folder, "feature-delivery", "workflow.ts"), "const docReview = await reviewer.run(", "run(");
    await page
      .locator(".editor-group-container .tab", { hasText: /^workflow\.ts/ })
      .first()
      .waitFor(WAIT);
    checks.push(`and feature-delivery/workflow.ts (its call at line ${asked.line}) beside`);
    await browser.close();

    stage = "turnlens test --timeline";
    const written = mkdtempSync(join(dir, "timelines-"));
    const cli = spawnSync(process.execPath, [join(root, "bin/turnlens.mjs"), "test", "examples/feature-delivery", "examples/reminder", "--timeline", written], {
      cwd: root,
      encoding: "utf8",
    });
    if (cli.status !== 0) throw new Error(`turnlens test --timeline exited ${cli.status}: ${cli.stderr}`);
    const page1 = readdirSync(written).find((name) => name.includes("a-reviewer-asks-the-planner"));
    if (!page1) throw new Error(`no page for the messaging test among ${readdirSync(written).join(", ")}`);

    stage = "the CLI's HTML in Chromium";
    browser = await launch(dir, { width: 1100, height: 1000 });
    page = browser.page;
    const errors = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("request", (request) => request.url().startsWith("file:") || errors.push(`fetched ${request.url()}`));
    await page.goto(`file://${join(written, "index.html")}`);
    await page.locator("a", { hasText: TEST }).click();
    await page.locator('g.box[data-box="1"]').click();
    await page.locator("#details", { hasText: "entry:    reviewer[0]" }).waitFor(WAIT);
    await paint();
    if (errors.length > 0) throw new Error(`the page logged errors: ${errors.join(" | ")}`);
    checks.push("the CLI's index.html and the test's page opened with no console error, nothing fetched");
    await page.screenshot({ path: join(out, "timeline-html.png"), fullPage: true });
    files.push("timeline-html.png");
    say("  wrote docs/images/timeline-html.png");
    for (const check of checks) say(`  ✓ ${check}`);
    return { ok: true, files, checks };
  } catch (error) {
    return await failedAt(page, logs, "timeline-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
