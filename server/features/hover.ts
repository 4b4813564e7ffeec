// Hover on a script (an entry, an events element, a participants or decisions key): what it met in
// the last run, the innermost script under the position; on a test(...): how its runs ended, their
// turns and durations; on an entry never reached: why. hoverMarkdown.ts words them.
import { type Hover, type HoverParams, MarkupKind } from "vscode-languageserver";
import { rangeContains, rangeSize } from "../analysis/ranges.ts";
import type { Server } from "../server.ts";
import { markdownHover } from "../toLsp.ts";
import { markdownAsPlainText } from "./markdownText.ts";
import { neverReachedMarkdown, scriptMarkdown, testMarkdown } from "./hoverMarkdown.ts";

export function register(server: Server): void {
  const { connection, state } = server;
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
    const results = state.currentResults(params.textDocument.uri);
    if (!results) return null;
    const hovered = results.view.scripts
      .filter((view) => rangeContains(view.range, params.position))
      .sort((left, right) => rangeSize(left.range) - rangeSize(right.range))[0];
    if (hovered) return markdownHover(scriptMarkdown(hovered), hovered.range);
    // An entry no turn reached met nothing: its hover says why, and what the list did meet.
    const never = results.view.neverReached
      .filter((view) => rangeContains(view.range, params.position))
      .sort((left, right) => rangeSize(left.range) - rangeSize(right.range))[0];
    if (never) return markdownHover(neverReachedMarkdown(never, results.view.scripts), never.range);
    const test = results.view.tests.find((view) => view.test && view.test.range.start.line === params.position.line && rangeContains(view.test.range, params.position));
    if (test?.test) return markdownHover(testMarkdown(test.report), test.test.calleeRange);
    return null;
  };
}
