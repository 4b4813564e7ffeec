// A test file's snapshots from the runner's side: which are written (Vitest's rule: `-u` all, on a
// CI none, else the new ones), where a matcher was called (the stack's first frame in a user file,
// already mapped from the bundle to the source), and the end of the file: skipped tests' snapshots
// kept, the files written, obsolete snapshots failing the file when nothing may be written.
import { isCI } from "std-env";
import {
  beginSnapshots,
  clearSnapshotTest,
  finishSnapshots,
  keepUncheckedSnapshots,
  skipSnapshotTest,
  type SnapshotFileResult,
  type SnapshotUpdate,
} from "../testApi/snapshots.ts";
import type { FileReport, TestReport } from "./report.ts";
import { framesOf, isUserFile } from "./stack.ts";

export type { SnapshotUpdate };

/** What a file's run decides when the caller did not: nothing written for an editor's unsaved text or on a CI. */
export function defaultSnapshotUpdate(options: { source?: string }): SnapshotUpdate {
  return options.source !== undefined || isCI ? "none" : "new";
}

/** The id of a test about to be tried (again): what an earlier try counted is forgotten. */
export function snapshotTestStarts(id: string): void {
  clearSnapshotTest(id);
}

interface Run {
  readonly reports: TestReport[];
  record(report: TestReport): void;
}

export interface FileSnapshots {
  /** After the file's tests: `unrun` are the paths of the tests skipped or left out, whose snapshots stay. */
  end(run: Run, unrun: ReadonlyArray<readonly string[]>): Promise<void>;
  /** The report with the file's snapshots, when it had any. */
  into(report: FileReport): FileReport;
}

/** Starts `options.file`'s snapshots (its .snap file read). */
export async function fileSnapshots(options: { file: string; source?: string; updateSnapshot?: SnapshotUpdate; onlyIds?: readonly string[] }): Promise<FileSnapshots> {
  const update = options.updateSnapshot ?? defaultSnapshotUpdate(options);
  await beginSnapshots(options.file, update, (stack) => framesOf(stack).find((frame) => isUserFile(frame.file)));
  let result: SnapshotFileResult | undefined;
  return {
    async end(run, unrun) {
      for (const path of unrun) skipSnapshotTest(path);
      for (const report of run.reports) if (report.status === "skipped") skipSnapshotTest(report.path);
      // Tests left out by id are not reported (the vitest runner's), so their snapshots would look
      // obsolete: a run of chosen tests (the editor's update of one test) removes none.
      if (options.onlyIds) keepUncheckedSnapshots();
      result = await finishSnapshots();
      // Vitest fails the file when it finds obsolete snapshots it may not remove (a CI run). An
      // editor's run of unsaved text writes nothing either, but an obsolete entry is no failure there.
      if (result && update === "none" && options.source === undefined && result.unchecked > 0) {
        const name = "obsolete snapshots";
        const message = `Obsolete snapshots found when no snapshot update is expected.\n${result.uncheckedKeys.map((key) => `· ${key}\n`).join("")}`;
        run.record({ id: name, name, path: [name], status: "failed", durationMs: 0, error: { message }, runs: [] });
      }
    },
    into(report) {
      if (result && (result.added || result.matched || result.unmatched || result.updated || result.unchecked || result.fileDeleted)) report.snapshots = result;
      return report;
    },
  };
}
