// docs/images/completion.png: completion inside an answer(SCHEMA, …) in code-server, Turnlens's
// items beside TypeScript's own: in examples/feature-delivery's test file, once its tests ran,
// `summary` is deleted from `answer(VERDICT, { kind: "ready", summary })` and completion asked at
// that key. TypeScript offers `summary`; Turnlens only the required property written with its value
// (`summary: ""`), never `summary` again: the step checks in the suggest widget's DOM that no label
// shows twice. Drives the workbench in Chromium as screenshots.mjs does; waits, never sleeps.
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

    stage = "the key deleted";
    // Find selects `summary }`; Escape leaves it selected, ArrowLeft puts the cursor before it, and
    // Shift+Ctrl+Right (the word) then Delete leave `{ kind: "ready",  }`, the cursor at the key.
    // The cursor goes to the top first, where Find starts.
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("Control+F");
    const find = page.locator(".find-widget textarea, .find-widget input").first();
    await find.waitFor(WAIT);
    await find.fill("summary }");
    await page.locator(".find-widget .matchesCount", { hasText: /^1 of 1$/ }).waitFor(WAIT);
    await page.keyboard.press("Escape");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Shift+Control+ArrowRight");
    await page.keyboard.press("Delete");
    // \s: the editor draws spaces as no-break spaces; no `$`: the entry's inlay hint is drawn after it, in the line's span.
    await editorText(/answer\(VERDICT,\s\{\skind:\s"ready",\s+\}\)/)
      .first()
      .waitFor(WAIT);

    stage = "the completion list";
    const rows = page.locator(".suggest-widget .monaco-list-row");
    // TypeScript's `summary` and Turnlens's `summary: ""`, both: the list is both servers' items.
    const ours = rows.filter({ hasText: 'summary: ""' }).first();
    const typescripts = rows.filter({ has: page.locator(".label-name", { hasText: /^summary$/ }) }).first();
    await untilShown(
      ours,
      () => page.keyboard.press("Control+Space"),
      () => page.keyboard.press("Escape"),
    );
    await typescripts.waitFor(WAIT);
    // The details of the focused item beside the list (a second Control+Space opens them).
    const details = page.locator(".suggest-details", { hasText: "summary" }).first();
    if (!(await details.isVisible())) await page.keyboard.press("Control+Space");
    await details.waitFor(WAIT);
    const labels = await rows.locator(".label-name").allInnerTexts();
    const twice = labels.filter((label, index) => labels.indexOf(label) !== index);
    say(`  the suggest widget lists: ${labels.join(" | ")}`);
    if (twice.length > 0) throw new Error(`the suggest widget lists ${twice.map((label) => JSON.stringify(label)).join(", ")} twice: ${labels.join(" | ")}`);
    await painted(page);
    await page.screenshot({ path: join(out, name) });
    say(`  wrote docs/images/${name}`);
    return { ok: true, files: [name] };
  } catch (error) {
    return await failedAt(page, logs, "completion-screenshot-failure.png", stage, error, []);
  } finally {
    await browser.close();
  }
}
