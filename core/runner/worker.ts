// A child process of `turnlens test` and of the language server: runs the files the parent sends
// (from disk, or an editor's unsaved text), one at a time, and reports progress over IPC so the
// parent can kill it when a test blocks the event loop.
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

process.on("message", (raw) => {
  const message = raw as ParentMessage;
  if (message.type === "exit") {
    exitProcess(0);
  }
  if (message.type !== "run") return;
  const pattern = message.pattern ? new RegExp(message.pattern.source, message.pattern.flags) : undefined;
  void runTestFile({
    file: message.file,
    timeoutMs: message.timeoutMs,
    ...(pattern ? { testNamePattern: pattern } : {}),
    ...(message.onlyIds ? { onlyIds: message.onlyIds } : {}),
    ...(message.source !== undefined ? { source: message.source } : {}),
    onEvent: (event) => send({ type: "event", file: message.file, event }),
  }).then(
    async (report) => send({ type: "file", report, ...(await schemasFor(message.file, message.schemaModules, report)) }),
    (error) =>
      send({
        type: "file",
        report: {
          file: message.file,
          tests: [],
          durationMs: 0,
          error: { message: `turnlens failed to run the file: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` },
        },
      }),
  );
});

/** The language server asks for the names of the schemas a new script entry would answer. */
async function schemasFor(file: string, modules: string[] | undefined, report: FileReport): Promise<{ schemas?: SchemaName[] }> {
  if (!modules) return {};
  try {
    const schemas = await findSchemaNames(file, modules, wantedSchemas(report));
    return schemas.length > 0 ? { schemas } : {};
  } catch {
    return {};
  }
}

process.on("disconnect", () => exitProcess(0));
send({ type: "ready" });
