// Hover on a script (an entry, an events element, a participants or decisions key): what it met in
// the last run, the innermost script under the position; on a test(...): how its runs ended, their
// turns and durations; on an entry never reached: why. hoverMarkdown.ts words them. While the run
// of an edited version goes, the last run's hovers are carried to the new text and marked stale
// (carriedHints.ts), as its inlay hints are, until the new run's replace them.
// A workflow document's hover is its call's (workflowFiles/workflowViews.ts).
import { type Hover, type HoverParams, MarkupKind } from "vscode-languageserver";
import type { Server } from "../server.ts";
import type { RunResults } from "../state.ts";
import { markdownAsPlainText } from "../views/markdownText.ts";
import { carriedHover, resultsHover } from "../views/runHover.ts";

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
  connection.onHover(server.guardRequest("hover", async (params: HoverParams): Promise<Hover | null> => forClient(await hoverAt(params))));
  const hoverAt = (params: HoverParams): Hover | null | Promise<Hover | null> => {
    if (!state.get(params.textDocument.uri)) return server.workflowViews.hover(params);
    const uri = params.textDocument.uri;
    const results = state.currentResults(uri);
    if (results) return resultsHover(results, params.position);
    const kept = last.get(uri);
    const text = state.documents.get(uri)?.getText();
    if (!kept?.stale || text === undefined) return null;
    return carriedHover(uri, kept.results, text, params.position);
  };
}
