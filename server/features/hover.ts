// Hover on a script (an entry, an events element, a participants or decisions key): what it met in
// the last run, the innermost script under the position; on a test(...): how its runs ended, their
// turns and durations; on an entry never reached: why. hoverMarkdown.ts words them. While the run
// of an edited version goes, the last run's hovers are carried to the new text and marked stale
// (carriedHints.ts), as its inlay hints are, until the new run's replace them.
// On an inline snapshot whose test passed: its value, readable (views/snapshotHover.ts).
// A workflow document's hover is its call's (workflowFiles/workflowViews.ts).
// A hover on a test file whose run is pending (after an edit, a quick fix) waits for that run's
// results, up to the `hoverWaitMs` setting, then answers with what it has: every client gets the
// turn it would show a moment later, not the stale or empty answer of the moment before.
import { type CancellationToken, type Disposable, type Hover, type HoverParams, MarkupKind } from "vscode-languageserver";
import type { Server } from "../server.ts";
import type { RunResults } from "../state.ts";
import { markdownAsPlainText } from "../views/markdownText.ts";
import { carriedHover, resultsHover } from "../views/runHover.ts";
import { snapshotHover } from "../views/snapshotHover.ts";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  /** The results last run for each document; `stale` once an edit a run follows came after them. */
  const last = new Map<string, { results: RunResults; stale: boolean }>();
  state.onDidChangeResults.event(
    server.guardNotification("keep results for hovers", (uri: string) => {
      const results = state.currentResults(uri);
      if (results) last.set(uri, { results, stale: false });
    }),
  );
  // As the inlay hints: an edit a run follows makes the last results stale (kept, carried at each
  // hover); an edit no run follows, or a debounce that ends with no run, drops them.
  scheduler.onDidChange.event(
    server.guardNotification("carry hovers", ({ uri, runFollows }: { uri: string; runFollows: boolean }) => {
      const kept = last.get(uri);
      if (!runFollows) last.delete(uri);
      else if (kept) kept.stale = true;
    }),
  );
  scheduler.onDidSettle.event(
    server.guardNotification("drop carried hovers", ({ uri, willRun }: { uri: string; willRun: boolean }) => {
      if (!willRun && last.get(uri)?.stale) last.delete(uri);
    }),
  );
  state.onDidClose.event(server.guardNotification("forget hovers", (uri: string) => void last.delete(uri)));
  server.onInitialize((_params, result) => {
    result.capabilities.hoverProvider = true;
  });
  // A client whose hovers take no markdown (eglot without markdown-mode, a plain-text client)
  // gets the same text without its marks: no stray `**`, backticks or `>`.
  const forClient = (hover: Hover | null): Hover | null => {
    const formats = state.clientCapabilities.textDocument?.hover?.contentFormat;
    if (!hover || !formats || formats.includes(MarkupKind.Markdown)) return hover;
    const contents = hover.contents;
    if (typeof contents !== "object" || !("kind" in contents) || contents.kind !== MarkupKind.Markdown) return hover;
    return { ...hover, contents: { kind: MarkupKind.PlainText, value: markdownAsPlainText(contents.value) } };
  };
  /**
   * Resolves once the document has results of its current text, or no run of it is on its way, or
   * after the document's `hoverWaitMs` (on the injected timer), or when the client cancels. Not
   * while its change waits behind a flood of messages: a request then answers from the state at hand.
   */
  const runSettled = (uri: string, token: CancellationToken | undefined): Promise<void> => {
    const waitMs = state.get(uri)?.settings.hoverWaitMs ?? 0;
    const waits = () => state.get(uri) !== undefined && !state.currentResults(uri) && scheduler.runPending(uri);
    if (waitMs <= 0 || state.changeWaits(uri) || !waits()) return Promise.resolve();
    return new Promise((resolve) => {
      const listeners: Disposable[] = [];
      const done = () => {
        for (const listener of listeners.splice(0)) listener.dispose();
        server.env.timer.clearTimeout(timer);
        resolve();
      };
      const check = (about: string) => {
        if (about === uri && !waits()) done();
      };
      const timer = server.env.timer.setTimeout(done, waitMs);
      listeners.push(
        state.onDidChangeResults.event(check),
        state.onDidClose.event(check),
        scheduler.onDidEndRun.event(({ run }) => check(run.uri)),
        // A debounce's end asks for its run just after it tells: look once that is done.
        scheduler.onDidSettle.event(({ uri: settled }) => void Promise.resolve().then(() => check(settled))),
      );
      if (token) listeners.push(token.onCancellationRequested(done));
    });
  };
  connection.onHover(
    server.guardRequest("hover", async (params: HoverParams, token?: CancellationToken): Promise<Hover | null> => {
      if (state.get(params.textDocument.uri)) await runSettled(params.textDocument.uri, token);
      return forClient(await hoverAt(params));
    }),
  );
  const hoverAt = (params: HoverParams): Hover | null | Promise<Hover | null> => {
    if (!state.get(params.textDocument.uri)) return server.workflowViews.hover(params);
    const uri = params.textDocument.uri;
    const results = state.currentResults(uri);
    if (results) return snapshotHover({ file: state.get(uri)!.file, ...results }, params.position) ?? resultsHover(results, params.position);
    const kept = last.get(uri);
    const text = state.documents.get(uri)?.getText();
    if (!kept?.stale || text === undefined) return null;
    return carriedHover(uri, kept.results, text, params.position);
  };
}
