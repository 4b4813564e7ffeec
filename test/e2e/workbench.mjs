// What every e2e script that drives code-server's workbench in Chromium does the same way: the
// wait for what it shows (never a sleep), opening the workspace, opening a file by quick open, and
// finding text in the active editor.

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
