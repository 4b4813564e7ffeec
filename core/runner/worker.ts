// A child process of the worker pool (`turnlens test` and the language server): runs the files the
// parent sends (from disk, or an editor's unsaved text), one at a time, and reports progress over
// IPC so the parent can kill it when a test blocks the event loop.
import { exitProcess, guardProcess } from "./processGuard.ts";
import { runTestFile } from "./runFile.ts";
import type { ParentMessage, WorkerMessage } from "./protocol.ts";
import type { FileReport } from "./report.ts";
import { findSchemaNames, type SchemaName, wantedSchemas } from "./schemaNames.ts";

process.setSourceMapsEnabled(true);
guardProcess();

function send(message: WorkerMessage): void {
  try {
    process.send?.(message);
  } catch {
    // the parent is gone
  }
}

async function runOne(message: Extract<ParentMessage, { type: "run" }>): Promise<void> {
  const pattern = message.pattern ? new RegExp(message.pattern.source, message.pattern.flags) : undefined;
  let report: FileReport;
  try {
    report = await runTestFile({
      file: message.file,
      timeoutMs: message.timeoutMs,
      ...(pattern ? { testNamePattern: pattern } : {}),
      ...(message.onlyIds ? { onlyIds: message.onlyIds } : {}),
      ...(message.source !== undefined ? { source: message.source } : {}),
      onEvent: (event) => send({ type: "event", file: message.file, event }),
    });
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    report = { file: message.file, tests: [], durationMs: 0, error: { message: `turnlens failed to run the file: ${text}` } };
  }
  const schemas = await schemasFor(message.file, message.schemaModules, report);
  send({ type: "done", file: message.file, durationMs: report.durationMs, ...(report.error ? { error: report.error } : {}), ...(schemas.length > 0 ? { schemas } : {}) });
}

process.on("message", (raw) => {
  const message = raw as ParentMessage;
  if (message.type === "exit") exitProcess(0);
  if (message.type === "run") void runOne(message);
});

/** The language server asks for the names of the schemas a new script entry would answer. */
async function schemasFor(file: string, modules: string[] | undefined, report: FileReport): Promise<SchemaName[]> {
  if (!modules) return [];
  try {
    return await findSchemaNames(file, modules, wantedSchemas(report));
  } catch {
    return [];
  }
}

process.on("disconnect", () => exitProcess(0));
send({ type: "ready" });
