// The titles of a test's result lens: `✓ 3 turns · 4 ms`, `✗ 1 problem`, `○ skipped`, and the
// tooltip of one from an earlier version of the text.
import type { TestReport } from "../../core/execution/report.ts";

/** A result lens of an earlier version of the text; unlike a hint's, no run may be on its way (manual, onSave). */
export const STALE_LENS_TOOLTIP = "From a run before your last edit; the next run replaces it.";

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The result lens of a test's last report. */
export function resultTitle(report: TestReport): string {
  if (report.status === "passed") {
    const turns = report.runs.reduce((sum, run) => sum + run.turns.length, 0);
    return `✓ ${plural(turns, "turn")} · ${Math.round(report.durationMs)} ms`;
  }
  if (report.status === "failed") {
    const problems = report.runs.reduce((sum, run) => sum + run.problems.length, 0) || (report.error?.problems?.length ?? 0);
    return problems > 0 ? `✗ ${plural(problems, "problem")}` : "✗ failed";
  }
  return `○ ${report.status}`;
}
