// "Check what this test asserts" clicked in code-server (docs/mutate.md): in examples/mutation's test
// file, once its run is in, the lens of the test that never reads the reviewer's verdict is clicked;
// its title becomes the check's result, and the reviewer's answer(...) gets the information
// diagnostic `answer-unchecked` (in the Problems panel and in the hover on it);
// docs/images/mutate-lens.png. Waits for what it shows, never sleeps.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, showHoverAtCursor, workbench } from "./workbench.mjs";

const LENS = "Check what this test asserts";
const SENTENCE = 'no assertion of this test depends on reviewer\'s answer (changed to {approved: false, notes: ""}, the test still passed)';
/** The check's result for that test: of its four mutants (two per answer), the reviewer's other value goes unnoticed. */
const RESULT = "1 of 4 changes unnoticed";

/** Matches a lens's whole title; the editor may draw its spaces as no-break spaces. */
const title = (text) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "\\s")}$`);

/** 1-based line and column of `call` on the `nth` (0-based) line of `file` that holds `text`. */
function siteIn(file, text, call, nth) {
  const lines = readFileSync(file, "utf8").split("\n");
  const indexes = lines.flatMap((line, index) => (line.includes(text) ? [index] : []));
  if (indexes.length <= nth) throw new Error(`${file} has ${indexes.length} lines with ${text}`);
  const index = indexes[nth];
  return { line: index + 1, column: lines[index].indexOf(call) + 1 };
}

export async function checkMutateLens({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  // The hover below its line, and no sticky lines, so the picture shows the lens above the test too.
  mkdirSync(join(folder, ".vscode"), { recursive: true });
  writeFileSync(join(folder, ".vscode", "settings.json"), `${JSON.stringify({ "editor.hover.above": false, "editor.stickyScroll.enabled": false }, null, 2)}\n`);
  const browser = await launch(dir, { width: 1400, height: 1240 });
  const { page } = browser;
  const files = [];
  const checks = [];
  let stage = "starting";
  const lenses = page.locator(".editor-group-container.active .codelens-decoration a");
  try {
    await openWorkspace(page, url, folder, say);

    stage = "the mutation demo's run";
    await workbench(page).openFile("workflow.test.ts");
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });

    stage = `the "${LENS}" lenses`;
    // Both tests pass, so each gets one; the second is the test that never reads the verdict.
    const checkLenses = lenses.filter({ hasText: title(LENS) });
    await checkLenses.nth(1).waitFor(WAIT);
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    await checkLenses.nth(1).click();

    stage = "the check's result in the lens";
    await lenses.filter({ hasText: title(RESULT) }).waitFor(WAIT);
    // The first test was not checked: its lens still offers the check.
    await checkLenses.first().waitFor(WAIT);
    if ((await checkLenses.count()) !== 1) throw new Error(`${await checkLenses.count()} lenses still say "${LENS}", expected only the first test's`);
    checks.push(`the clicked lens now says "${RESULT}", the other test's still "${LENS}"`);

    stage = "the diagnostic in the Problems panel";
    await page.locator(".editor-group-container.active .squiggly-info").first().waitFor(WAIT);
    const site = siteIn(join(folder, "workflow.test.ts"), "reviewer: answer(VERDICT,", "answer(", 1);
    await page.keyboard.press("Control+Shift+M");
    const problems = page.locator(".markers-panel .monaco-list-row");
    const problem = problems.filter({ hasText: SENTENCE });
    await problem.waitFor(WAIT);
    await problem.filter({ hasText: "answer-unchecked" }).waitFor(WAIT);
    await problem.filter({ hasText: `[Ln ${site.line}, Col ${site.column}]` }).waitFor(WAIT);
    const rows = await problems.allInnerTexts();
    // The file's row and the one problem: nothing else is reported on the demo.
    if (rows.length !== 2) throw new Error(`the Problems panel has ${rows.length} rows: ${rows.join(" | ")}`);
    checks.push(`the Problems panel has the one information problem at Ln ${site.line}, Col ${site.column}: "${SENTENCE}"`);

    stage = "the hover on the reviewer's answer(...)";
    // Back to the editor, the cursor on that `answer`, and its hover with the keyboard (Ctrl+K Ctrl+I).
    await page.keyboard.press("Control+1");
    await page.keyboard.press("Control+G");
    const goTo = page.locator(".quick-input-widget input");
    await goTo.waitFor(WAIT);
    await goTo.fill(`:${site.line}:${site.column + 2}`);
    await page.keyboard.press("Enter");
    await page.locator(".statusbar-item", { hasText: `Ln ${site.line}, Col ${site.column + 2}` }).waitFor(WAIT);
    // Go to Line scrolled the line to the middle; back to the top (the cursor stays), so the test's lens shows.
    for (let line = 1; line < site.line; line++) await page.keyboard.press("Control+ArrowUp");
    await page.locator(".editor-group-container.active .view-line", { hasText: "The mutation demo" }).waitFor(WAIT);
    // Its whole hover: the problem, then Turnlens's turn, then the quick-fix line once it is known.
    const hover = page.locator(".monaco-hover", { hasText: SENTENCE }).filter({ hasText: "Review this summary: Two sentences." }).first();
    await showHoverAtCursor(page, hover);
    await hover.filter({ hasText: "No quick fixes available" }).waitFor(WAIT);
    checks.push(`the hover on answer at Ln ${site.line} opens with the sentence`);
    await painted(page);
    // The window down to the problem's row: the panel's empty rest and the status bar say nothing more.
    const row = await problem.boundingBox();
    await page.screenshot({ path: join(out, "mutate-lens.png"), clip: { x: 0, y: 0, width: page.viewportSize().width, height: Math.ceil(row.y + row.height + 12) } });
    files.push("mutate-lens.png");
    say("  wrote docs/images/mutate-lens.png");
    for (const check of checks) say(`  ✓ ${check}`);
    return { ok: true, files, checks };
  } catch (error) {
    return await failedAt(page, logs, "mutate-lens-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
