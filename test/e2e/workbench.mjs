// What every e2e script that drives code-server's workbench in Chromium does the same way: the
// wait for what it shows (never a sleep), opening the workspace, opening a file by quick open, and
// finding text in the active editor, asking again for what a busy workbench let pass, and the
// picture and message a step leaves when it fails.

import { join } from "node:path";

export const WAIT = { timeout: Number(process.env.TURNLENS_E2E_UI_TIMEOUT_MS) || 90_000 };

/** Opens `folder` in the workbench at `url` and waits for its explorer; page errors go to `say`. */
export async function openWorkspace(page, url, folder, say) {
  page.on("pageerror", (error) => say(`  pageerror: ${error.message}`));
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`, WAIT);
  await page.locator(".monaco-workbench").waitFor(WAIT);
  await page.locator(".explorer-folders-view .monaco-list-row").first().waitFor(WAIT);
}

/** `openFile(relative)` by quick open, and `editorText(text)`: the active editor's spans holding it. */
export function workbench(page) {
  const openFile = async (relative) => {
    await page.keyboard.press("Control+P");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor(WAIT);
    await input.fill(relative);
    const name = relative.split("/").pop();
    // the focused row, not a row left from the last time the list showed
    await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: name }).waitFor(WAIT);
    await page.keyboard.press("Enter");
    await page.locator(".tab.active", { hasText: name }).waitFor({ state: "attached", ...WAIT }); // (scrolled off when many are open)
  };
  const editorText = (text) => page.locator(".editor-group-container.active .view-lines span", { hasText: text });
  return { openFile, editorText };
}

/** Waits until the browser has painted twice, so a screenshot taken next shows what was waited for. */
export const painted = (page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Does `act`, then waits `timeout` ms for `shown`; a busy workbench can let a key press or a hover
 * pass unanswered, so after `reset` it tries again, `attempts` times in all, then throws the last wait's error.
 */
export async function untilShown(shown, act, reset, { attempts = 6, timeout = 10_000 } = {}) {
  for (let attempt = 1; ; attempt++) {
    await act();
    try {
      await shown.waitFor({ timeout });
      return;
    } catch (error) {
      if (attempt === attempts) throw error;
      await reset();
    }
  }
}

/** Shows the hover at the cursor with the keyboard (Ctrl+K Ctrl+I, no pointer timing) until `hover` shows. */
export function showHoverAtCursor(page, hover) {
  return untilShown(
    hover,
    async () => {
      await page.keyboard.press("Control+K");
      await page.keyboard.press("Control+I");
    },
    () => page.keyboard.press("Escape"),
  );
}

/**
 * What a step that takes pictures returns when it failed at `stage`: why, and the page then in
 * logs/`picture`. Awaited where it is returned (`return await`): a step's `finally` closes the
 * browser, which, run before the picture was taken, left every failure without one.
 */
export async function failedAt(page, logs, picture, stage, error, files) {
  // Said when the picture could not be taken, so the message never names a file that is not there.
  const pictured = await page.screenshot({ path: join(logs, picture), timeout: 60_000 }).then(
    () => `the page then: ${join(logs, picture)}`,
    (failure) => `no picture of the page: ${failure.message.split("\n")[0]}`,
  );
  return { ok: false, files, error: `${stage}: ${error.message.split("\n").slice(0, 3).join(" ")} (${pictured})` };
}
