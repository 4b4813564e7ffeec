// One gutter icon per test, and a diff peek nothing covers (issue 27), in code-server on a copy of
// examples/: after feature-delivery's tests ran, each `test(` line has one testing icon in the gutter
// and a `testWorkflow(` line none (its run item is in the Testing view only); the Test Results peek of
// a schema mismatch shows its diff with no button over it (docs/images/peek-diff.png), and the run's
// timeline is still a right click away on the message in Test Results. Waits for what it shows.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "./browser.mjs";
import { WAIT, failedAt, openWorkspace, painted, workbench } from "./workbench.mjs";

const PICTURE = "peek-diff.png";

/** Each line of the active editor on screen: its text and how many testing icons its gutter has. */
function gutterLines(page) {
  return page.evaluate(() => {
    const editor = document.querySelector(".editor-group-container.active .monaco-editor");
    if (!editor) return [];
    const middle = (node) => {
      const rect = node.getBoundingClientRect();
      return rect.top + rect.height / 2;
    };
    const icons = [...editor.querySelectorAll(".testing-run-glyph")].map((node) => ({ at: middle(node), icon: node.className }));
    return [...editor.querySelectorAll(".view-lines .view-line")].map((line) => {
      const rect = line.getBoundingClientRect();
      const on = icons.filter((icon) => icon.at >= rect.top && icon.at < rect.bottom);
      return {
        top: rect.top,
        text: (line.textContent ?? "").replace(/\u00a0/g, " "),
        icons: on.map((icon) => icon.icon.replace(/.*codicon-testing-([a-z-]+)-icon.*/, "$1")),
      };
    });
  });
}

export async function checkGutterAndPeek({ url, dir, folder, out, logs = dir, say = console.log }) {
  mkdirSync(out, { recursive: true });
  mkdirSync(join(folder, ".vscode"), { recursive: true });
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
  try {
    await openWorkspace(page, url, folder, say);

    stage = "feature-delivery's tests run on opening";
    await openFile("feature-delivery/workflow.test.ts");
    const editor = page.locator(".editor-group-container.active");
    // Its tests' results in the gutter, and their Timeline lenses (so their run items exist).
    await editor
      .locator(".codelens-decoration a", { hasText: /^Timeline$/ })
      .nth(1)
      .waitFor(WAIT);
    for (const deadline = Date.now() + WAIT.timeout; (await editor.locator(".testing-run-glyph.codicon-testing-passed-icon").count()) < 2; ) {
      if (Date.now() > deadline) throw new Error("no two ✓ in the gutter");
      await page.waitForTimeout(250);
    }
    await painted(page);

    stage = "one gutter icon per test";
    const lines = await gutterLines(page);
    const tests = lines.filter((line) => /^\s*test\(/.test(line.text));
    const runs = lines.filter((line) => line.text.includes("testWorkflow(") && !/^\s*test\(/.test(line.text));
    say(
      `  gutter: ${lines
        .filter((line) => line.icons.length > 0)
        .map((line) => `${line.icons.join("+")} on "${line.text.trim().slice(0, 40)}"`)
        .join(" | ")}`,
    );
    if (tests.length < 2 || runs.length < 2) throw new Error(`expected two tests and their testWorkflow calls on screen, saw ${tests.length} and ${runs.length}`);
    const wrongTests = tests.filter((line) => line.icons.length !== 1 || line.icons[0] !== "passed");
    const wrongRuns = runs.filter((line) => line.icons.length > 0);
    if (wrongTests.length > 0 || wrongRuns.length > 0)
      throw new Error(
        `gutter icons: ${[...wrongTests, ...wrongRuns].map((line) => `"${line.text.trim().slice(0, 50)}" has ${line.icons.length} (${line.icons.join(", ")})`).join("; ")}`,
      );
    checks.push(`each of the ${tests.length} tests on screen has one ✓ on its test( line, and its testWorkflow( line none`);

    stage = "the schema mismatch's diff peek";
    await openFile("mistakes/schema-mismatch.test.ts");
    await page.locator(".editor-group-container.active .testing-run-glyph.codicon-testing-failed-icon").first().waitFor(WAIT);
    await page.keyboard.press("Control+B");
    await page.locator(".part.sidebar").waitFor({ state: "hidden", ...WAIT });
    await page.locator(".editor-group-container.active .view-lines").click();
    // The failure's message has no place in the file (its squiggle is its one mark): the gutter ✗'s
    // "Peek Error" opens it, as a user would.
    await page.locator(".editor-group-container.active .testing-run-glyph.codicon-testing-failed-icon").first().click({ button: "right" });
    await page.locator(".monaco-menu .action-label", { hasText: /^Peek Error$/ }).click(WAIT);
    const peek = page.locator(".test-output-peek");
    await peek.locator(".monaco-diff-editor").first().waitFor(WAIT);
    await peek.locator(".monaco-diff-editor .view-line", { hasText: "done" }).first().waitFor(WAIT);
    await painted(page);
    await page.screenshot({ path: join(out, PICTURE) });
    files.push(PICTURE);
    say(`  wrote docs/images/${PICTURE}`);
    const covering = await peek.locator(".floating-click-widget").count();
    if (covering > 0) throw new Error(`the peek has ${covering} button(s) over its diff: ${(await peek.locator(".floating-click-widget").allTextContents()).join(", ")}`);
    checks.push("the diff peek of the schema mismatch has no button over its diff");
    await page.keyboard.press("Escape");

    // Not checked: "Show the Run's Timeline" in the message's context menu in Test Results did not
    // show there in code-server 1.139 (two runs, issue 27's note); the Timeline lens opens it.
    for (const check of checks) say(`  ✓ ${check}`);
    return { ok: true, files, checks };
  } catch (error) {
    return await failedAt(page, logs, "gutter-and-peek-failure.png", stage, error, files);
  } finally {
    await browser.close();
  }
}
