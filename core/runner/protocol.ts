// Messages between the worker pool (core/runner/pool.ts) and its worker processes.
import type { ErrorReport } from "./report.ts";
import type { RunEvent } from "./runFile.ts";
import type { SchemaName } from "./schemaNames.ts";

export type ParentMessage =
  | {
      type: "run";
      file: string;
      timeoutMs: number;
      pattern?: { source: string; flags: string };
      onlyIds?: string[];
      /** The file's text to run instead of what is on disk (the language server's unsaved buffer). */
      source?: string;
      /**
       * Module specifiers, relative to the file's folder, whose exported schemas the worker names
       * for the turns that a new script entry would answer (see schemaNames.ts).
       */
      schemaModules?: string[];
    }
  | { type: "exit" };

export type WorkerMessage =
  | { type: "ready" }
  | { type: "event"; file: string; event: RunEvent }
  /**
   * The file is done. Its tests crossed the channel once each, as `test` events; this carries
   * only what the file itself ended with.
   */
  | { type: "done"; file: string; durationMs: number; error?: ErrorReport; schemas?: SchemaName[] };
