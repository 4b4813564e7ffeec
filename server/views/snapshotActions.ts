// "Update this snapshot": the quick fix on the diagnostic of a test whose snapshot did not match
// (core's `FileReport.snapshots.failures`, by the test's id). It is a command, not an edit: the
// test is rerun with -u and @vitest/snapshot writes the .snap file or the inline snapshot.
import { CodeActionKind, type CodeAction } from "vscode-languageserver";
import type { FileReport } from "../../core/execution/report.ts";
import { Commands } from "../protocol.ts";
import type { TurnlensDiagnostic } from "./toLsp.ts";

export const UPDATE_SNAPSHOT_TITLE = "Update this snapshot";

/** The action on `diagnostic` when its test failed on a snapshot in `report`'s run; undefined otherwise. */
export function snapshotUpdateAction(uri: string, report: FileReport, diagnostic: TurnlensDiagnostic): CodeAction | undefined {
  const id = diagnostic.data.test;
  if (id === undefined || !report.snapshots?.failures.some((failure) => failure.testId === id)) return undefined;
  const test = report.tests.find((each) => each.id === id);
  if (!test) return undefined;
  return {
    title: UPDATE_SNAPSHOT_TITLE,
    kind: CodeActionKind.QuickFix,
    isPreferred: true,
    command: { title: UPDATE_SNAPSHOT_TITLE, command: Commands.updateSnapshot, arguments: [uri, test.path] },
  };
}
