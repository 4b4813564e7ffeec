// docs/images/output-channel.png, stale-hint.png and never-reached-hover.png: the output channel
// with its run lines (each naming its worker), a hint kept stale (` …`, with its tooltip) right
// after an edit while the new run waits, and the hover of an entry no turn reached. Drives
// code-server's workbench in Chromium as screenshots.mjs does; waits for what it shows, never sleeps.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, showHoverAtCursor, untilShown, workbench } from "./workbench.mjs";

/** Long enough that the stale hint is on screen for the picture, short enough that the first runs come soon. */
const DEBOUNCE_MS = 6000;

export async function takeEditorStateScreenshots({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  mkdirSync(join(folder, ".vscode"), { recursive: true });
  writeFileSync(join(folder, ".vscode", "settings.json"), `${JSON.stringify({ "turnlens.debounceMs": DEBOUNCE_MS, "editor.inlayHints.maximumLength": 0 }, null, 2)}\n`);
  const browser = await launch(dir);
  const { page } = browser;
  const { openFile, editorText } = workbench(page);
  const files = [];
  let stage = "starting";
  /** A picture of one part of the window (the editor group, the panel), at most `height` tall, so it shows one thing. */
  const shot = async (name, part, height = Number.POSITIVE_INFINITY) => {
    await painted(page);
    const box = await part.boundingBox();
    await page.screenshot({ path: join(out, name), clip: { ...box, height: Math.min(box.height, height) } });
    files.push(name);
    say(`  wrote docs/images/${name}`);
  };
  const editor = page.locator(".editor-group-container.active").first();
  const showHover = (hover) => showHoverAtCursor(page, hover);
  try {
    await openWorkspace(page, url, folder, say);
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });

    stage = "the stale hint";
    // Opening the file runs it (after the debounce); its hint says the run is in.
    await openFile("summarize/summarize.test.ts");
    await editorText(/^reader.·.turn.1.answered$/)
      .first()
      .waitFor(WAIT);
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    // A new line above the first test: the run of the edited text waits for its debounce, and the
    // last run's hints stay, moved down a line and marked ` …`.
    const firstTest = page.locator(".editor-group-container.active .view-line", { hasText: /^test\("returns/ }).first();
    await firstTest.click({ position: { x: 2, y: 5 } });
    // A new empty line first, then the comment on it (Enter inside a comment would continue it).
    await page.keyboard.press("Home");
    await page.keyboard.press("Enter");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.type("// a comment typed just now");
    const stale = editorText(/^reader.·.turn.1.answered.…$/).first();
    await stale.waitFor(WAIT);
    // Its tooltip says why it is marked.
    const tooltip = page.locator(".monaco-hover", { hasText: "From the run before your last edit" }).first();
    await untilShown(
      tooltip,
      () => stale.hover(),
      () => page.mouse.move(700, 820),
      { attempts: 4, timeout: 3000 },
    );
    await shot("stale-hint.png", editor, 560);
    // The new run replaces it (the mark goes).
    await page.mouse.move(700, 820);
    await editorText(/^reader.·.turn.1.answered$/)
      .first()
      .waitFor(WAIT);
    await page.keyboard.press("Control+Z");
    await page.keyboard.press("Control+Z");

    stage = "the never-reached hover";
    await openFile("mistakes/entry-never-reached.test.ts");
    await page.locator(".editor-group-container.active .squiggly-warning").first().waitFor(WAIT);
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    // The writer's second entry, `answer(NOTE, { title: "Release 1.3" })`: no turn reached it.
    const never = page
      .locator(".editor-group-container.active .view-line", { hasText: /Release.1\.3/ })
      .locator("span", { hasText: /^answer$/ })
      .nth(1);
    await never.click();
    // Turnlens's part (not the problem's, which says "never reached" too), whole.
    await showHover(page.locator(".monaco-hover", { hasText: /Turn 1 met entry 1/ }).first());
    await page.locator(".monaco-hover", { hasText: "Checking for quick fixes" }).waitFor({ state: "detached", ...WAIT });
    await shot("never-reached-hover.png", editor, 420);
    await page.keyboard.press("Escape");

    stage = "the output channel";
    // The runs above, each a line naming its file, version, worker, tests and time.
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor(WAIT);
    await input.fill(">Turnlens: Show Output");
    await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: "Show Output" }).waitFor(WAIT);
    await page.keyboard.press("Enter");
    const panel = page.locator(".part.panel");
    await panel
      .locator(".view-line", { hasText: /ran.summarize\/summarize\.test\.ts.*on.worker.\d+/ })
      .first()
      .waitFor(WAIT);
    await panel
      .locator(".view-line", { hasText: /ran.mistakes\/entry-never-reached\.test\.ts.*on.worker.\d+/ })
      .first()
      .waitFor(WAIT);
    await page.mouse.move(700, 200);
    await shot("output-channel.png", panel);
    return { ok: true, files };
  } catch (error) {
    return failedAt(page, logs, "editor-state-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
