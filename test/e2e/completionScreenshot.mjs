// docs/images/completion.png: completion inside an answer(SCHEMA, …) in code-server, from the
// Turnlens server: in examples/feature-delivery's test file, once its tests ran, the value of
// `answer(VERDICT, …)` is deleted and completion asked there, offering each object VERDICT accepts.
// Drives the workbench in Chromium as screenshots.mjs does; waits for what it shows, never sleeps.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, untilShown, workbench } from "./workbench.mjs";

export async function takeCompletionScreenshot({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  const browser = await launch(dir);
  const { page } = browser;
  const { openFile, editorText } = workbench(page);
  const name = "completion.png";
  let stage = "starting";
  try {
    await openWorkspace(page, url, folder, say);

    stage = "the feature-delivery tests' run";
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });
    await openFile("feature-delivery/workflow.test.ts");
    // A test's lens says the run is in: the server knows VERDICT from the run's trace.
    await page.locator(".editor-group-container.active .codelens-decoration", { hasText: "✓" }).first().waitFor(WAIT);
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });

    stage = "the value deleted";
    // Find selects the value; Escape leaves it selected; Delete leaves `answer(VERDICT, |)`.
    // The editor has the focus since the file opened; the cursor goes to the top, where Find starts.
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Control+F");
    const find = page.locator(".find-widget textarea, .find-widget input").first();
    await find.waitFor(WAIT);
    await find.fill('{ kind: "ready", summary }');
    await page.locator(".find-widget .matchesCount", { hasText: /^1 of 1$/ }).waitFor(WAIT);
    await page.keyboard.press("Escape");
    await page.keyboard.press("Delete");
    await editorText(/answer\(VERDICT,.\);$/)
      .first()
      .waitFor(WAIT);

    stage = "the completion list";
    const suggest = page.locator(".suggest-widget .monaco-list-row", { hasText: 'kind: "changes"' }).first();
    await untilShown(
      suggest,
      () => page.keyboard.press("Control+Space"),
      () => page.keyboard.press("Escape"),
    );
    // The details of the focused item beside the list (a second Control+Space opens them).
    const details = page.locator(".suggest-details", { hasText: "object with kind" }).first();
    if (!(await details.isVisible())) await page.keyboard.press("Control+Space");
    await details.waitFor(WAIT);
    await painted(page);
    await page.screenshot({ path: join(out, name) });
    say(`  wrote docs/images/${name}`);
    return { ok: true, files: [name] };
  } catch (error) {
    return failedAt(page, logs, "completion-screenshot-failure.png", stage, error, []);
  } finally {
    await browser.close();
  }
}
