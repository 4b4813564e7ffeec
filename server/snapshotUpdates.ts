// "Update this snapshot" (`turnlens.updateSnapshot`): one test of a saved test file run from disk
// with snapshots rewritten (`-u`), so @vitest/snapshot writes its .snap entries and inline snapshots;
// the file's other snapshots stay (a run by id removes no obsolete one, core/execution/snapshotRun.ts).
// Then the document reruns, so the editor's results are of the updated snapshots.
import { readFileSync } from "node:fs";
import { TestId, type UpdateSnapshotResult } from "./protocol.ts";
import { runSettingsFrom } from "./projectConfig.ts";
import type { Server } from "./server.ts";
import { fileOf } from "./state.ts";

/** The command's arguments, checked: `[uri, path]`. */
export function readUpdateArguments(args: unknown[] | undefined): { uri: string; path: string[] } {
  const [uri, path] = args ?? [];
  if (typeof uri !== "string" || !Array.isArray(path) || path.length === 0 || !path.every((part) => typeof part === "string")) {
    throw new Error("turnlens.updateSnapshot takes [uri, path] (path: describe names, then the test name)");
  }
  return { uri, path };
}

/** Runs the test at `path` of `uri` with its snapshots rewritten; answers once they are written. */
export async function updateSnapshot(server: Server, uri: string, path: string[]): Promise<UpdateSnapshotResult> {
  const file = fileOf(uri);
  if (!file) return { ok: false, refused: `${uri} is not a file` };
  let disk: string;
  try {
    disk = readFileSync(file, "utf8");
  } catch {
    return { ok: false, refused: `${file} could not be read` };
  }
  // @vitest/snapshot writes an inline snapshot into the file on disk, at the line the run's call was
  // on: a run of unsaved text would write it at the wrong place, so the saved file is what is run.
  const open = server.state.documents.get(uri);
  if (open && open.getText() !== disk) return { ok: false, refused: "the file has unsaved changes: save it, then update the snapshot" };
  const project = runSettingsFrom(await server.configs.forFile(file));
  const id = path.join(" › ");
  const settings = server.state.get(uri)?.settings ?? server.state.globalSettings;
  const result = await server.workers.run({
    file,
    timeoutMs: project.timeoutMs ?? settings.testTimeout,
    onlyIds: [id],
    updateSnapshot: "all",
    first: true,
    traces: false,
    ...(project.setupFiles ? { setupFiles: project.setupFiles } : {}),
    ...(project.vite ? { vite: project.vite } : {}),
  });
  // Undefined only for a cancelled job, and this one has no signal; the pool stopping (a shutdown) is the same.
  if (!result) return { ok: false, refused: "the run was stopped" };
  const report = result.report;
  const test = report.tests.find((each) => each.id === id);
  if (!test) return { ok: false, refused: report.error ? `the file did not run: ${report.error.message}` : `no test ${TestId.of(uri, path)} ran` };
  server.log.info(`snapshots of ${id} in ${file} updated: ${report.snapshots?.updated ?? 0} rewritten, ${report.snapshots?.added ?? 0} written, the test ${test.status}`);
  // What the editor shows is rerun: the .snap file (and maybe the file itself) changed on disk.
  server.scheduler.request(uri, { runIds: [] });
  return {
    ok: true,
    status: test.status,
    updated: report.snapshots?.updated ?? 0,
    added: report.snapshots?.added ?? 0,
    ...(report.snapshots ? { snapshotFile: report.snapshots.snapshotFile } : {}),
  };
}
