// The hover on an inline snapshot whose test passed in the last run: the snapshot's value as the
// matcher compares it (its escapes read, its indentation taken off) in a code block, and its test.
// A failed one has its diff in the test's failure message and its quick fix instead.
import type { Hover, Position } from "vscode-languageserver";
import { inlineSnapshotAt } from "../analysis/inlineSnapshots.ts";
import { testAtSite } from "../analysis/siteLookup.ts";
import type { StaticTestFile } from "../analysis/model.ts";
import { code } from "./markdownText.ts";
import type { RunView } from "./runView.ts";
import { markdownHover } from "./toLsp.ts";

/** What the hover is made from: the run's text, its static model and view (server/state.ts's RunResults). */
export interface SnapshotHoverInput {
  file: string;
  text: string;
  model: StaticTestFile;
  view: RunView;
}

/** A fence longer than any run of backticks in `text`, so the block holds it whole. */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}\n${text}\n${fence}`;
}

export function snapshotHover(input: SnapshotHoverInput, position: Position): Hover | null {
  const call = inlineSnapshotAt(input.file, input.text, position);
  if (!call) return null;
  const test = testAtSite(input.model, call.site.line, call.site.column);
  const report = test ? input.view.tests.find((view) => view.test === test)?.report : undefined;
  if (report?.status !== "passed") return null;
  const markdown = [`**Inline snapshot** · matched in the last run`, fenced(call.value), `*in test ${code(report.path.join(" › "))}*`].join("\n\n");
  return markdownHover(markdown, call.range);
}
