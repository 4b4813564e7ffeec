// docs/images/output-channel.png, stale-hint.png, never-reached-hover.png, one-mark-per-problem.png
// and schema-mismatch-words.png: the output channel with its run lines (each naming its worker), a
// hint kept stale (` …`, with its tooltip) right after an edit while the new run waits, the hover of
// an entry no turn reached, a failed test's problem marked once (its squiggle, no inline test
// message over it), and a schema mismatch said in words in its hover and Problems (no JSON, no
// `… != …` drawn in the editor). Drives code-server's workbench in Chromium as screenshots.mjs
// does; waits for what it shows, never sleeps but for the bounded watch that nothing more is drawn.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, showHoverAtCursor, untilShown, workbench } from "./workbench.mjs";

/** Long enough that the stale hint is on screen for the picture, short enough that the first runs come soon. */
const DEBOUNCE_MS = 6000;

/**
 * How long a check that VS Code draws no inline test message watches, once the gutter says ✗ (VS
 * Code draws its inline messages from the same results, within its 100 ms decoration debounce).
 */
const NOTHING_MORE_MS = 3000;

/** VS Code's inline failure message (its error widget in 1.139, the inline decoration before). */
const INLINE_MESSAGE = ".test-error-content-widget, .test-message-inline-content";

/**
 * Waits for the active editor's failed test (the ✗ VS Code puts in the gutter from its result) and
 * its problem's `squiggle` class, then watches NOTHING_MORE_MS that VS Code draws no inline test
 * message in that editor: the squiggle is the problem's one mark (docs/vscode-extension.md).
 */
async function markedOnce(page, editor, squiggle) {
  // The selector atAGlance.mjs finds the gutter's ✗ by.
  const failed = editor.locator(".monaco-editor .codicon-testing-failed-icon").first();
  await failed.waitFor(WAIT).catch(async (error) => {
    // What the margin held instead, so a changed workbench says how.
    const margin = await editor.locator(".margin [class*='codicon'], .glyph-margin-widgets [class]").evaluateAll((nodes) => nodes.map((node) => node.className));
    throw new Error(`${error.message.split("\n")[0]}; the margin's classes: ${JSON.stringify(margin.slice(0, 12))}`);
  });
  await editor.locator(`.${squiggle}`).first().waitFor(WAIT);
  const inline = editor.locator(INLINE_MESSAGE);
  const deadline = Date.now() + NOTHING_MORE_MS;
  while (Date.now() < deadline) {
    await painted(page);
    const drawn = await inline.allTextContents();
    if (drawn.length > 0) throw new Error(`an inline test message draws the problem again: ${JSON.stringify(drawn.map((text) => text.slice(0, 120)))}`);
    await page.waitForTimeout(250);
  }
}

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

    stage = "one mark per problem";
    // First, so a slow first run of another file holds none of these up. Once VS Code has the
    // failed result (the ✗ in the gutter): the never-reached entry is marked by its yellow squiggle
    // alone, with no red inline test message drawing it again.
    await openFile("mistakes/entry-never-reached.test.ts");
    await markedOnce(page, editor, "squiggly-warning");
    await shot("one-mark-per-problem.png", editor, 420);

    stage = "the schema mismatch in words";
    await openFile("mistakes/schema-mismatch.test.ts");
    await markedOnce(page, editor, "squiggly-error");
    await page.locator(".statusbar", { hasText: "Analyzing" }).waitFor({ state: "detached", ...WAIT });
    // Problems: the message and its two related lines, each schema in words.
    await page.keyboard.press("Control+Shift+M");
    const markers = page.locator(".markers-panel");
    const message = markers.locator(".monaco-list-row", { hasText: "at /title NOTE wants a string, STEP has no title" }).first();
    await message.waitFor(WAIT);
    // Its related lines are its children in the tree: open it where the tree shows it closed.
    if ((await message.getAttribute("aria-expanded")) === "false") await message.locator(".monaco-tl-twistie").click();
    await markers.locator(".monaco-list-row", { hasText: "the script's schema (STEP): an object with done (a boolean)" }).first().waitFor(WAIT);
    const rows = await markers.locator(".monaco-list-row").allTextContents();
    const mismatchRows = rows.filter((row) => /schema|STEP|NOTE/.test(row));
    const wanted = ["at /title NOTE wants a string, STEP has no title", "the turn's schema (NOTE): an object with title (a string)"];
    for (const text of wanted)
      if (!mismatchRows.some((row) => row.includes(text))) throw new Error(`Problems has no row saying "${text}": ${JSON.stringify(mismatchRows)}`);
    const json = mismatchRows.filter((row) => /[{}]|!=/.test(row));
    if (json.length > 0) throw new Error(`Problems shows JSON for the schema mismatch: ${JSON.stringify(json)}`);
    // The hover of the entry's schema argument: the message in words.
    await page
      .locator(".editor-group-container.active .view-line", { hasText: /answer\(STEP/ })
      .locator("span", { hasText: /^STEP$/ })
      .first()
      .click();
    const hover = page.locator(".monaco-hover", { hasText: "at /title NOTE wants a string, STEP has no title" }).first();
    await showHover(hover);
    const said = (await hover.textContent()) ?? "";
    if (/\{\s*"|!=/.test(said)) throw new Error(`the hover shows JSON: ${said.slice(0, 300)}`);
    await page.locator(".monaco-hover", { hasText: "Checking for quick fixes" }).waitFor({ state: "detached", ...WAIT });
    await painted(page);
    await page.screenshot({ path: join(out, "schema-mismatch-words.png") });
    files.push("schema-mismatch-words.png");
    say("  wrote docs/images/schema-mismatch-words.png");
    await page.keyboard.press("Escape");
    // The panel closed again, so the pictures below show the editor as before.
    if (await page.locator(".part.panel").isVisible()) await page.keyboard.press("Control+J");
    await page.locator(".part.panel").waitFor({ state: "hidden", ...WAIT });

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
    return await failedAt(page, logs, "editor-state-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
