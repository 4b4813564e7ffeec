// Helpers for the e2e suites (plain CommonJS, run in code-server's extension host): waiting on
// events or on a condition with a deadline (never a fixed sleep), opening files, logging TEST lines.
const assert = require("node:assert");
const vscode = require("vscode");

/** Logs a line the harness prints (it shows the extension host's console lines that say TEST). */
function log(text) {
  console.log(`TEST ${text}`);
}

/**
 * Resolves with the first truthy value of `probe()`, checked at once and again on each `events`
 * firing (and every `pollMs`, for state no event announces); rejects after `ms` naming `what`.
 */
function waitFor(what, probe, { ms = 60_000, pollMs = 250, events = [] } = {}) {
  return new Promise((resolve, reject) => {
    let done = false;
    let last;
    const subscriptions = [];
    const finish = (error, value) => {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearInterval(poll);
      for (const subscription of subscriptions) subscription.dispose();
      if (error) reject(error);
      else resolve(value);
    };
    const check = async () => {
      if (done) return;
      try {
        const value = await probe();
        if (value) finish(undefined, value);
      } catch (error) {
        last = error;
      }
    };
    const deadline = setTimeout(() => finish(new Error(`timed out after ${ms / 1000} s waiting for ${what}${last ? ` (last error: ${last.message})` : ""}`)), ms);
    const poll = setInterval(check, pollMs);
    for (const event of events) subscriptions.push(event(() => void check()));
    void check();
  });
}

/** Waits until `uri` has a diagnostic `match` accepts; returns it. */
function waitForDiagnostic(what, uri, match, ms) {
  return waitFor(what, () => vscode.languages.getDiagnostics(uri).find(match), { ms, events: [vscode.languages.onDidChangeDiagnostics] });
}

/** A diagnostic's code as a string (VS Code gives `{ value, target }` for codes with a link). */
function codeOf(diagnostic) {
  return typeof diagnostic.code === "object" && diagnostic.code ? String(diagnostic.code.value) : String(diagnostic.code);
}

async function open(uri) {
  const document = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  return { document, editor };
}

/** The position of the `nth` (0-based) occurrence of `text` in `document`. */
function positionOf(document, text, nth = 0) {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = document.getText().indexOf(text, at + 1);
    if (at < 0) throw new Error(`"${text}" (#${nth + 1}) is not in ${document.uri.path}`);
  }
  return document.positionAt(at);
}

/** Hover text (markdown or plain) at a position, joined. */
async function hoverText(uri, position) {
  const hovers = (await vscode.commands.executeCommand("vscode.executeHoverProvider", uri, position)) ?? [];
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === "string" ? content : content.value))
    .join("\n");
}

/** Inlay hint labels of a whole document. */
async function inlayHints(document) {
  const range = new vscode.Range(0, 0, document.lineCount, 0);
  const hints = (await vscode.commands.executeCommand("vscode.executeInlayHintProvider", document.uri, range)) ?? [];
  return hints.map((hint) => ({
    line: hint.position.line,
    label: typeof hint.label === "string" ? hint.label : hint.label.map((part) => part.value).join(""),
  }));
}

/** Code lens titles of a document (resolved). */
async function codeLenses(uri) {
  const lenses = (await vscode.commands.executeCommand("vscode.executeCodeLensProvider", uri, 100)) ?? [];
  return lenses.filter((lens) => lens.command).map((lens) => ({ line: lens.range.start.line, title: lens.command.title, command: lens.command.command }));
}

/** Runs the steps in order, logging each; the first failure rejects (the test run's exit code 1). */
async function steps(list) {
  for (const [name, body] of list) {
    const start = Date.now();
    try {
      await body();
    } catch (error) {
      log(`FAIL ${name}: ${error.message}`);
      throw error;
    }
    log(`ok   ${name} (${Date.now() - start} ms)`);
  }
}

/** The Turnlens extension the .vsix installed; fails the step when it is missing. */
function installedExtension() {
  const extension = vscode.extensions.getExtension("turnlens.turnlens");
  assert.ok(extension, "turnlens.turnlens is installed");
  return extension;
}

/** Waits until `extension` is active; returns the API its activate() returned. */
async function activated(extension) {
  await waitFor("the extension to activate", () => extension.isActive, { events: [vscode.extensions.onDidChange] });
  return extension.exports;
}

/** Waits until the installed extension is active and its language server ready; returns its API. */
async function readyApi(extension = installedExtension()) {
  const api = await activated(extension);
  await api.ready();
  return api;
}

module.exports = { installedExtension, activated, readyApi, log, waitFor, waitForDiagnostic, codeOf, open, positionOf, hoverText, inlayHints, codeLenses, steps };
