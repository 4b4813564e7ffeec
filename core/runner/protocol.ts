// Messages between `turnlens test` and its worker processes.
import type { FileReport } from "./report.ts";
import type { RunEvent } from "./runFile.ts";

export type ParentMessage =
  | {
      type: "run";
      file: string;
      timeoutMs: number;
      pattern?: { source: string; flags: string };
      onlyIds?: string[];
    }
  | { type: "exit" };

export type WorkerMessage =
  | { type: "ready" }
  | { type: "event"; file: string; event: RunEvent }
  | { type: "file"; report: FileReport };
