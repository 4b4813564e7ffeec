// A child process of `turnlens test`: runs the files the parent sends, one at a time, and reports
// progress over IPC so the parent can kill it when a test blocks the event loop.
import { exitProcess, guardProcess, runTestFile } from "./runFile.ts";
import type { ParentMessage, WorkerMessage } from "./protocol.ts";

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
    onEvent: (event) => send({ type: "event", file: message.file, event }),
  }).then(
    (report) => send({ type: "file", report }),
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

process.on("disconnect", () => exitProcess(0));
send({ type: "ready" });
