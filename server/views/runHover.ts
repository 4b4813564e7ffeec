// The hover of a run's results at a position: the innermost script under it (what it met), an entry
// never reached (why), a test(...) (how its runs ended); and the last run's hover carried to edited
// text, marked stale (carriedHints.ts). hoverMarkdown.ts words them.
import type { Hover, Position } from "vscode-languageserver";
import { rangeContains, rangeSize } from "../analysis/ranges.ts";
import { carryRange, lineCarrier, markStaleMarkdown, positionBefore } from "./carriedHints.ts";
import type { RunView } from "./runView.ts";
import { markdownHover } from "./toLsp.ts";
import { neverReachedMarkdown, scriptMarkdown, testMarkdown } from "./hoverMarkdown.ts";

/** What a hover is made from: a run's view and the text it was made for (server/state.ts's RunResults). */
export interface HoveredResults {
  text: string;
  view: RunView;
}

/**
 * The hover of a run's results at a position of the text they were made for; `shownLine` maps a
 * line of that text to the line a hover names (a carried hover's text has moved on).
 */
export function resultsHover(results: HoveredResults, position: Position, shownLine?: (line: number) => number): Hover | null {
  const hovered = results.view.scripts.filter((view) => rangeContains(view.range, position)).sort((left, right) => rangeSize(left.range) - rangeSize(right.range))[0];
  if (hovered) return markdownHover(scriptMarkdown(hovered), hovered.range);
  // An entry no turn reached met nothing: its hover says why, and what the list did meet.
  const never = results.view.neverReached.filter((view) => rangeContains(view.range, position)).sort((left, right) => rangeSize(left.range) - rangeSize(right.range))[0];
  if (never) {
    const scripts = shownLine ? results.view.scripts.map((view) => ({ ...view, line: shownLine(view.line) })) : results.view.scripts;
    return markdownHover(neverReachedMarkdown(never, scripts), never.range);
  }
  const test = results.view.tests.find((view) => view.test && view.test.range.start.line === position.line && rangeContains(view.test.range, position));
  if (test?.test) return markdownHover(testMarkdown(test.report), test.test.calleeRange);
  return null;
}

/**
 * The last run's hover at a position of the edited text `text`: found where that position was in
 * the text the results were made for, its range moved to `text`, its markdown marked stale. None
 * on what the edit wrote.
 */
export function carriedHover(uri: string, results: HoveredResults, text: string, position: Position): Hover | null {
  const before = positionBefore(uri, results.text, text, position);
  if (!before) return null;
  const hover = resultsHover(results, before, lineCarrier(uri, results.text, text));
  if (!hover?.range || typeof hover.contents !== "object" || !("kind" in hover.contents)) return hover;
  return { contents: { kind: hover.contents.kind, value: markStaleMarkdown(hover.contents.value) }, range: carryRange(uri, results.text, text, hover.range) };
}
