// The README's screenshots (docs/images/): drives code-server's workbench in Chromium on a copy of
// examples/ with the installed extension: Test Explorer with results, inline turns with a hover,
// the Problems panel, the quick-fix menu. Each waits for what it shows; none sleeps.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, untilShown, workbench } from "./workbench.mjs";

export async function takeScreenshots({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  const browser = await launch(dir);
  const { page } = browser;
  const { openFile, editorText } = workbench(page);
  const files = [];
  const shot = async (name) => {
    const path = join(out, name);
    // let the frame that shows what we waited for be painted
    await painted(page);
    await page.screenshot({ path });
    files.push(name);
    say(`  wrote docs/images/${name}`);
  };
  let stage = "starting";
  try {
    await openWorkspace(page, url, folder, say);

    stage = "the Testing view";
    // 1. The Testing view after running every test, files in folders: the examples pass,
    // examples/mistakes fail, and the count over the tree is the CLI's (by test); beside it a file.
    await page.locator('.activitybar [aria-label^="Testing"]').first().click();
    const testing = page.locator(".test-explorer");
    // the files sit in folders (summarize/ › summarize.test.ts): open the summarize folder
    const folderRow = testing.locator(".monaco-list-row", { hasText: /^\s*summarize\s*$/ }).first();
    await folderRow.waitFor(WAIT);
    if ((await folderRow.getAttribute("aria-expanded")) === "false") await folderRow.locator(".monaco-tl-twistie").click();
    await testing.locator(".monaco-list-row", { hasText: "summarize.test.ts" }).waitFor(WAIT);
    // a wider side bar, so the items' descriptions show
    const bar = await page.locator(".part.sidebar").boundingBox();
    await page.mouse.move(bar.x + bar.width + 1, 400);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width + 170, 400, { steps: 5 });
    await page.mouse.up();
    // the file first: opening it runs it, and that run must end before Run All, whose count the picture shows
    await openFile("summarize/summarize.test.ts");
    await editorText(/^reader.·.turn.1.answered$/)
      .first()
      .waitFor(WAIT);
    await page.locator('.part.sidebar [aria-label^="Run Tests"]').first().click();
    await page.mouse.move(900, 300); // off the toolbar: no tooltip in the picture
    await testing.locator(".monaco-list-row .codicon-testing-passed-icon").first().waitFor(WAIT);
    await testing.locator(".monaco-list-row .codicon-testing-failed-icon").first().waitFor(WAIT);
    // the run is over when the summary (`passed/total  time`) stops spinning
    await testing.locator(".result-summary").waitFor(WAIT);
    await testing.locator(".result-summary .codicon-modifier-spin").waitFor({ state: "detached", ...WAIT });
    // VS Code's own count over the tree is by test: the CLI's numbers for the same folder
    const cli = spawnSync(process.execPath, [join(import.meta.dirname, "../../dist/cli.mjs"), "test", "."], {
      cwd: folder,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    const [, passed, failed] = /(\d+) passed, (\d+) failed/.exec(cli.stdout) ?? [];
    // the summary's leaf elements: the count (`passed/total`) and the time, apart
    const parts = await testing
      .locator(".result-summary")
      .evaluate((summary) => [...summary.querySelectorAll("*")].filter((node) => node.children.length === 0).map((node) => (node.textContent ?? "").trim()));
    const summary = parts.filter(Boolean).join(" ");
    say(`  Testing view: ${summary}; CLI: ${passed} passed, ${failed} failed`);
    if (!parts.includes(`${passed}/${Number(passed) + Number(failed)}`))
      throw new Error(`the Testing view counts "${summary}", the CLI ${passed} passed, ${failed} failed`);
    // open a passing file's tests and the first test's workflow run
    const row = (text) => testing.locator(".monaco-list-row", { hasText: text }).first();
    await row("summarize.test.ts").locator(".monaco-tl-twistie").click();
    await row("returns the reader's summary").locator(".monaco-tl-twistie").click();
    await row("run summarize").waitFor(WAIT);
    // no panel: the picture is the tree and its count (Test Results opens on a run with failures)
    if (await page.locator(".part.panel").isVisible()) await page.keyboard.press("Control+J");
    await page.locator(".part.panel").waitFor({ state: "hidden", ...WAIT });
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    await page.mouse.move(900, 300);
    await shot("test-explorer.png");

    stage = "the inline turns and a hover";
    // 2. Inline turns with a hover open, in the review example; no panel or side bar, for room.
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });
    await openFile("review/workflow.test.ts");
    // The glob's agents by their pattern, at VS Code's default editor.inlayHints.maximumLength (43, not raised here).
    await editorText(/verifier-\*.·.turn.1/)
      .first()
      .waitFor(WAIT);
    // Every hint drawn whole: VS Code ends a hint it cut at maximumLength with `…` (the file has none of its own).
    const cutHints = (await page.locator(".editor-group-container.active .view-line").allInnerTexts()).filter((line) => line.includes(" · ") && line.includes("…"));
    if (cutHints.length > 0) throw new Error(`hints cut at the default maximumLength: ${cutHints.join(" | ")}`);
    // TypeScript's part of the hover says "(loading...)" until its project is loaded
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    // `answer("Looks good, merging.")`, the lead's second entry
    const entry = page
      .locator(".editor-group-container.active .view-line", { hasText: /Looks.good,.merging/ })
      .locator("span", { hasText: /^answer$/ })
      .first();
    const hover = page.locator(".monaco-hover", { hasText: "Turnlens · " }).first();
    await untilShown(
      hover,
      () => entry.hover(),
      () => page.mouse.move(900, 780), // away, and back on the next try
      { timeout: 5000 },
    );
    await shot("inline-turns-hover.png");
    await page.keyboard.press("Escape");
    await page.mouse.move(900, 780);

    stage = "the Problems panel";
    // 3. The Problems panel with a few failing examples open (the side bar stays hidden).
    const mistakes = [
      ["entry-never-reached.test.ts", "its script has 2"],
      ["turn-past-list.test.ts", 'agent "worker" turn 2'],
      ["unscripted-agent.test.ts", "no script for it"],
      ["schema-mismatch.test.ts", "it asks for"],
    ];
    for (const [name] of mistakes) await openFile(`mistakes/${name}`);
    await page.keyboard.press("Control+Shift+M");
    for (const [, text] of mistakes) await page.locator(".markers-panel", { hasText: text }).first().waitFor(WAIT);
    // a click on a problem opens its file at it
    await page.locator(".markers-panel .monaco-list-row", { hasText: "its script has 2" }).click();
    await page.locator(".tab.active", { hasText: "entry-never-reached.test.ts" }).waitFor({ state: "attached", ...WAIT });
    await page.locator(".editor-group-container.active .squiggly-warning").first().waitFor(WAIT);
    await page.locator(".editor-group-container.active .codelens-decoration", { hasText: "✗ 1 problem" }).waitFor(WAIT);
    await shot("problems.png");

    stage = "the quick-fix menu";
    // 4. The quick-fix menu on a misspelled option.
    await openFile("mistakes/misspelled-option.test.ts");
    const squiggle = page.locator(".editor-group-container.active .squiggly-error, .editor-group-container.active .squiggly-warning").first();
    await page.locator(".markers-panel", { hasText: 'did you mean "agents"' }).first().waitFor(WAIT);
    // The file's top in view: revealed at its problem, the option's line sits under the sticky
    // `test(` header, which hides it and takes the click (twice the name was then never found, the
    // cursor at it: Ctrl+Home had gone to the Problems panel, or came before the reveal). So: the
    // editor focused (Ctrl+1), its top, until the name shows; then the cursor on it (a click: the
    // squiggle overlay takes none).
    const optionName = editorText(/^agnets$/).first();
    const clickTheName = async () => {
      await untilShown(
        optionName,
        async () => {
          await page.keyboard.press("Control+1");
          await page.keyboard.press("Control+Home");
        },
        () => {},
        { timeout: 5000 },
      );
      await optionName.click();
    };
    await clickTheName();
    await squiggle.waitFor(WAIT);
    // The menu asks every code-action provider (TypeScript's too, which may still be loading its
    // project) and a press can go unanswered: press again until the menu shows, as the hover does.
    const menu = page.locator(".action-widget", { hasText: 'Rename "agnets" to "agents"' }).first();
    await untilShown(
      menu,
      () => page.keyboard.press("Control+."),
      async () => {
        await page.keyboard.press("Escape");
        await clickTheName();
      },
      { attempts: 8 },
    );
    await shot("quick-fix.png");
    await page.keyboard.press("Escape");
    return { ok: true, files };
  } catch (error) {
    return await failedAt(page, logs, "screenshot-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
