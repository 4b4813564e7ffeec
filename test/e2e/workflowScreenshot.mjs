// docs/images/workflow-views.png: examples/review's workflow file in code-server once its tests
// ran, with the per-call hints (an open call's counting the outcomes no test gives) and the hover
// on the lead's open call naming them, with its quick fixes (a Hint diagnostic: no squiggle).
// Drives the workbench in Chromium as screenshots.mjs does; waits for what it shows, never sleeps.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, showHoverAtCursor, workbench } from "./workbench.mjs";

export async function takeWorkflowScreenshot({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  // VS Code cuts an inlay hint past 43 characters by default; the picture shows them whole.
  mkdirSync(join(folder, ".vscode"), { recursive: true });
  writeFileSync(join(folder, ".vscode", "settings.json"), `${JSON.stringify({ "editor.inlayHints.maximumLength": 0 }, null, 2)}\n`);
  const browser = await launch(dir);
  const { page } = browser;
  const { openFile, editorText } = workbench(page);
  const name = "workflow-views.png";
  let stage = "starting";
  try {
    await openWorkspace(page, url, folder, say);

    stage = "the review tests' run";
    // Opening the test file runs it (runMode onType); its hints say the run is in.
    await openFile("review/workflow.test.ts");
    await editorText(/verifier-\*.·.turn.1/)
      .first()
      .waitFor(WAIT);

    stage = "the workflow file's hints and coverage";
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });
    await openFile("review/workflow.ts");
    await editorText(/in.4.tests:.answered.8/)
      .first()
      .waitFor(WAIT);
    // Scrolled so both open calls (the verifiers' and the lead's) and every hint show.
    // (Ctrl+Down scrolls the editor a line, the cursor staying put.)
    await page.locator(".editor-group-container.active .view-lines").click({ position: { x: 5, y: 5 } });
    for (let line = 0; line < 22; line++) await page.keyboard.press("Control+ArrowDown");
    await editorText(/in.3.tests:.answered.3/)
      .first()
      .waitFor(WAIT);
    // The verifiers' call says its first outcome and how many more, whole within 43 characters.
    await editorText(/answered.8,.3.more$/)
      .first()
      .waitFor(WAIT);
    await editorText(/5.outcomes.untested/)
      .first()
      .waitFor(WAIT);
    // The notice is a hint, never a squiggle on the call.
    if ((await page.locator(".editor-group-container.active .squiggly-info").count()) > 0) throw new Error("a squiggle is drawn in the workflow file");
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    // The lead's open call: its hover says what no test gives the lead. The cursor goes on `wf`: VS
    // Code gives a Hint diagnostic (its quick fixes) the first two characters of its range alone.
    const open = page
      .locator(".editor-group-container.active .view-line", { hasText: /key:."lead"/ })
      .locator("span", { hasText: /^wf$/ })
      .first();
    const hover = page.locator(".monaco-hover", { hasText: 'No test gives "lead"' }).first();
    // The cursor on the call, then the keyboard's "show hover" (Ctrl+K Ctrl+I): no pointer timing.
    await open.click();
    await showHoverAtCursor(page, hover);
    // Its fixes are found (the hover says "Quick Fix…" then, not "Checking for quick fixes…").
    await page
      .locator(".monaco-hover", { hasText: /Quick Fix/ })
      .first()
      .waitFor(WAIT);
    await painted(page);
    await page.screenshot({ path: join(out, name) });
    say(`  wrote docs/images/${name}`);
    return { ok: true, files: [name] };
  } catch (error) {
    return await failedAt(page, logs, "workflow-screenshot-failure.png", stage, error, []);
  } finally {
    await browser.close();
  }
}
