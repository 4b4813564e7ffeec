// Failed snapshots in the editor (issue 28), in code-server on a copy of examples/summarize with a
// `vitest` test file whose .snap entry and inline snapshot no longer match: the Test Results peek of
// the .snap failure is a diff of the stored snapshot against the received value (snapshot-peek.png);
// the Testing view's menu has "Update Snapshots" on that test and not on a passing one
// (snapshot-update-menu.png), and choosing it rewrites the .snap entry and the test passes
// (snapshot-updated.png); the quick fix "Update this snapshot" (Ctrl+.) rewrites the inline
// snapshot in the source and that test passes. Waits for what it shows.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, untilShown, workbench } from "./workbench.mjs";

const PEEK_PICTURE = "snapshot-peek.png";
const MENU_PICTURE = "snapshot-update-menu.png";
const UPDATED_PICTURE = "snapshot-updated.png";
const TEST_FILE = "summary.test.ts";
const SNAP_FILE = `__snapshots__/${TEST_FILE}.snap`;
const SNAP_TEST = "the summary is the one in its snapshot";
const INLINE_TEST = "the prompt is the one inline";
const PASSING_TEST = "the file's name is in its snapshot";

/** The reader's summary changed ("Three sentences now.") and the prompt reads NOTES.md: both snapshots are old. */
const TEST_TEXT = `// summary.test.ts
import { expect, test } from "vitest";
import { answer, testWorkflow } from "turnlens/testing";
import summarize, { SUMMARY } from "./summarize";

const reader = (summary: string) => ({ reader: answer(SUMMARY, { summary }) });

test("${SNAP_TEST}", async () => {
  const run = await testWorkflow(summarize, { args: { file: "README.md" }, agents: reader("Three sentences now.") });
  expect(run.value).toMatchSnapshot();
});

test("${INLINE_TEST}", async () => {
  const run = await testWorkflow(summarize, { args: { file: "NOTES.md" }, agents: reader("Two sentences.") });
  expect(run.turnsOf("reader")[0]?.prompt).toMatchInlineSnapshot(\`"Read README.md and summarise it in two sentences."\`);
});

test("${PASSING_TEST}", () => {
  expect("README.md").toMatchSnapshot();
});
`;

/** As Vitest wrote it before the summary changed (keys sorted, as @vitest/snapshot writes them). */
const SNAP_TEXT = `// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html

exports[\`${PASSING_TEST} 1\`] = \`"README.md"\`;

exports[\`${SNAP_TEST} 1\`] = \`
{
  "summary": "Two sentences.",
}
\`;
`;

/** What the inline snapshot says once updated. */
const INLINE_UPDATED = 'toMatchInlineSnapshot(`"Read NOTES.md and summarise it in two sentences."`)';

/** The testing icon in the active editor's gutter on the line holding `text`: its index among the glyphs and its state (`passed`, `failed`, …). */
function gutterIconOn(page, text) {
  return page.evaluate((text) => {
    const editor = document.querySelector(".editor-group-container.active .monaco-editor");
    const line = [...(editor?.querySelectorAll(".view-lines .view-line") ?? [])].find((node) => (node.textContent ?? "").replace(/\u00a0/g, " ").includes(text));
    if (!line) return undefined;
    const { top, bottom } = line.getBoundingClientRect();
    const glyphs = [...editor.querySelectorAll(".testing-run-glyph")];
    const index = glyphs.findIndex((glyph) => {
      const rect = glyph.getBoundingClientRect();
      const middle = rect.top + rect.height / 2;
      return middle >= top && middle < bottom;
    });
    return index < 0 ? undefined : { index, state: glyphs[index].className.replace(/.*codicon-testing-([a-z-]+)-icon.*/, "$1") };
  }, text);
}

/** Waits until the gutter icon on the line holding `text` is `state`; throws saying what it was. */
async function untilGutter(page, text, state) {
  let seen;
  for (const deadline = Date.now() + WAIT.timeout; ; ) {
    seen = await gutterIconOn(page, text);
    if (seen?.state === state) return seen;
    if (Date.now() > deadline) throw new Error(`the gutter icon on "${text}" is ${seen ? `"${seen.state}"` : "not there"}, expected "${state}"`);
    await page.waitForTimeout(250);
  }
}

/** Waits until the file at `path` holds `text`; throws with its last text. */
async function untilFileHolds(page, path, text) {
  let seen = "";
  for (const deadline = Date.now() + WAIT.timeout; ; ) {
    seen = readFileSync(path, "utf8");
    if (seen.includes(text)) return seen;
    if (Date.now() > deadline) throw new Error(`${path} does not hold ${JSON.stringify(text)}; it reads: ${JSON.stringify(seen)}`);
    await page.waitForTimeout(250);
  }
}

export async function checkSnapshotPeek({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  mkdirSync(join(folder, ".vscode"), { recursive: true });
  mkdirSync(join(folder, "__snapshots__"), { recursive: true });
  writeFileSync(join(folder, TEST_FILE), TEST_TEXT);
  writeFileSync(join(folder, SNAP_FILE), SNAP_TEXT);
  // The peek opens when the step asks for it; no sticky lines over the gutter.
  writeFileSync(
    join(folder, ".vscode", "settings.json"),
    `${JSON.stringify({ "testing.automaticallyOpenPeekView": "never", "editor.stickyScroll.enabled": false, "testing.automaticallyOpenTestResults": "neverOpen" }, null, 2)}\n`,
  );
  const browser = await launch(dir, { width: 1400, height: 900 });
  const { page } = browser;
  const { openFile } = workbench(page);
  const files = [];
  const checks = [];
  let stage = "starting";
  const menuLabels = () => page.locator(".monaco-menu .action-label");
  try {
    await openWorkspace(page, url, folder, say);

    stage = `${TEST_FILE}'s run on opening`;
    await openFile(TEST_FILE);
    await untilGutter(page, `test("${SNAP_TEST}"`, "failed");
    await untilGutter(page, `test("${INLINE_TEST}"`, "failed");
    await untilGutter(page, `test("${PASSING_TEST}"`, "passed");
    checks.push("after the run on opening, the gutter has ✗ on the two tests whose snapshots are old and ✓ on the one that matches");

    stage = "the .snap failure's diff peek";
    // The gutter ✗'s "Peek Error", as a user would.
    const glyphs = page.locator(".editor-group-container.active .testing-run-glyph");
    const snapGlyph = await gutterIconOn(page, `test("${SNAP_TEST}"`);
    await glyphs.nth(snapGlyph.index).click({ button: "right" });
    await page.locator(".monaco-menu .action-label", { hasText: /^Peek Error$/ }).click(WAIT);
    const peek = page.locator(".test-output-peek");
    await peek.locator(".monaco-diff-editor").first().waitFor(WAIT);
    // Stored on the left, received on the right.
    await peek.locator(".monaco-diff-editor .editor.original .view-line", { hasText: '"summary": "Two sentences."' }).first().waitFor(WAIT);
    await peek.locator(".monaco-diff-editor .editor.modified .view-line", { hasText: '"summary": "Three sentences now."' }).first().waitFor(WAIT);
    await painted(page);
    await page.screenshot({ path: join(out, PEEK_PICTURE) });
    files.push(PEEK_PICTURE);
    say(`  wrote docs/images/${PEEK_PICTURE}`);
    checks.push('the peek of the .snap failure is a diff: the stored "Two sentences." against the received "Three sentences now."');
    await page.keyboard.press("Escape");
    await peek.waitFor({ state: "detached", ...WAIT });

    stage = "the Testing view's menu on the .snap failure";
    await page.locator('.activitybar [aria-label^="Testing"]').first().click(WAIT);
    const testing = page.locator(".test-explorer");
    const row = (name) => testing.locator(".monaco-list-row", { hasText: name }).first();
    // The file's item opens to show its tests (→ opens a row, never closes it).
    await untilShown(
      row(SNAP_TEST),
      async () => {
        await row(TEST_FILE).click();
        await page.keyboard.press("ArrowRight");
      },
      async () => {},
    );
    await row(SNAP_TEST).locator(".codicon-testing-failed-icon").waitFor(WAIT);
    const update = page.locator(".monaco-menu .action-label", { hasText: /^Update Snapshots$/ });
    await untilShown(
      update,
      () => row(SNAP_TEST).click({ button: "right" }),
      () => page.keyboard.press("Escape"),
    );
    await painted(page);
    await page.screenshot({ path: join(out, MENU_PICTURE) });
    files.push(MENU_PICTURE);
    say(`  wrote docs/images/${MENU_PICTURE} (the menu: ${(await menuLabels().allTextContents()).join(" | ")})`);
    await page.keyboard.press("Escape");
    await update.waitFor({ state: "detached", ...WAIT });

    stage = "the Testing view's menu on a passing test";
    await row(PASSING_TEST).locator(".codicon-testing-passed-icon").waitFor(WAIT);
    // Turnlens's own item in the menu: its contributions are drawn.
    await untilShown(
      page.locator(".monaco-menu .action-label", { hasText: /^Show the Run's Transcript$/ }),
      () => row(PASSING_TEST).click({ button: "right" }),
      () => page.keyboard.press("Escape"),
    );
    const passingMenu = await menuLabels().allTextContents();
    say(`  the passing test's menu: ${passingMenu.join(" | ")}`);
    if (passingMenu.some((label) => label.trim() === "Update Snapshots")) throw new Error(`the menu of "${PASSING_TEST}", which passed, has Update Snapshots`);
    checks.push(`the Testing view's menu has Update Snapshots on "${SNAP_TEST}" and not on "${PASSING_TEST}", which passed`);
    await page.keyboard.press("Escape");

    stage = "Update Snapshots from the Testing view";
    await untilShown(
      update,
      () => row(SNAP_TEST).click({ button: "right" }),
      () => page.keyboard.press("Escape"),
    );
    await update.click();
    const snap = await untilFileHolds(page, join(folder, SNAP_FILE), '"summary": "Three sentences now."');
    if (snap.includes("Two sentences.")) throw new Error(`the .snap file still holds the old summary: ${JSON.stringify(snap)}`);
    if (!snap.includes(`exports[\`${PASSING_TEST} 1\`] = \`"README.md"\`;`)) throw new Error(`the .snap file lost the passing test's entry: ${JSON.stringify(snap)}`);
    await row(SNAP_TEST).locator(".codicon-testing-passed-icon").waitFor(WAIT);
    await untilGutter(page, `test("${SNAP_TEST}"`, "passed");
    checks.push('Update Snapshots rewrote the .snap entry to "Three sentences now." (the other entry kept) and the test passed, in the Testing view and the gutter');
    await page.screenshot({ path: join(out, UPDATED_PICTURE) });
    files.push(UPDATED_PICTURE);
    say(`  wrote docs/images/${UPDATED_PICTURE}`);
    // The menu item goes with the failure.
    await untilShown(
      page.locator(".monaco-menu .action-label", { hasText: /^Show the Run's Transcript$/ }),
      () => row(SNAP_TEST).click({ button: "right" }),
      () => page.keyboard.press("Escape"),
    );
    const afterMenu = await menuLabels().allTextContents();
    if (afterMenu.some((label) => label.trim() === "Update Snapshots")) throw new Error(`once updated, the menu of "${SNAP_TEST}" still has Update Snapshots`);
    checks.push("once it passed, its menu no longer has Update Snapshots");
    await page.keyboard.press("Escape");

    stage = "the quick fix Update this snapshot on the inline snapshot";
    const lines = TEST_TEXT.split("\n");
    const line = lines.findIndex((text) => text.includes("toMatchInlineSnapshot"));
    const column = lines[line].indexOf("toMatchInlineSnapshot") + 3;
    const editor = page.locator(".editor-group-container.active");
    await editor.locator(".view-lines").click();
    await page.keyboard.press("Control+G");
    const goTo = page.locator(".quick-input-widget input");
    await goTo.waitFor(WAIT);
    await goTo.fill(`:${line + 1}:${column}`);
    await page.keyboard.press("Enter");
    await page.locator(".statusbar-item", { hasText: `Ln ${line + 1}, Col ${column}` }).waitFor(WAIT);
    await editor.locator(".squiggly-error").first().waitFor(WAIT);
    // The menu asks every code-action provider (TypeScript's too, which may still be loading): press again until it shows.
    const fix = page.locator(".action-widget .monaco-list-row", { hasText: "Update this snapshot" }).first();
    await untilShown(
      fix,
      () => page.keyboard.press("Control+."),
      () => page.keyboard.press("Escape"),
      { attempts: 8 },
    );
    await fix.click();
    const source = await untilFileHolds(page, join(folder, TEST_FILE), INLINE_UPDATED);
    if (source.replace(INLINE_UPDATED, "") !== TEST_TEXT.replace('toMatchInlineSnapshot(`"Read README.md and summarise it in two sentences."`)', ""))
      throw new Error(`the quick fix changed more than the inline snapshot: ${JSON.stringify(source)}`);
    await editor.locator(".view-line", { hasText: "Read NOTES.md and summarise" }).first().waitFor(WAIT);
    await untilGutter(page, `test("${INLINE_TEST}"`, "passed");
    await row(INLINE_TEST).locator(".codicon-testing-passed-icon").waitFor(WAIT);
    checks.push("the quick fix Update this snapshot rewrote the inline snapshot in the source (nothing else) and the test passed");

    for (const check of checks) say(`  ✓ ${check}`);
    return { ok: true, files, checks };
  } catch (error) {
    return await failedAt(page, logs, "snapshot-peek-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
