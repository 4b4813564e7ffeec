// Messages between the worker pool (core/execution/pool.ts) and its worker processes, and the check
// every message from a worker passes before the pool believes it: a worker runs user code, so what
// arrives on its channel is untrusted input (a malformed one fails the file, it never crashes the
// pool or switches its watchdog off).
import Type, { type TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import type { ErrorReport, FileReport } from "./report.ts";
import type { FileReach, RunEvent } from "./runFile.ts";
import type { SchemaName } from "./schemaNames.ts";
import type { MutationPlan } from "../testing/scriptMutation.ts";
import type { LineCoverageData } from "./v8Coverage.ts";
import type { ViteSettings, WorkerIds } from "./viteSettings.ts";

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
       * Texts to bundle instead of the disk's, by absolute path: the language server's open buffers,
       * saved or not, for any file the bundle loads (`source` wins for the test file itself).
       */
      sources?: Record<string, string>;
      /**
       * Module specifiers, relative to the file's folder, whose exported schemas the worker names
       * for the turns that a new script entry would answer (see schemaNames.ts).
       */
      schemaModules?: string[];
      /** `false`: the tests' run traces stay in the worker (`turnlens test`'s reporters show none). */
      traces?: false;
      /** The config's setup files (absolute), run in the file's bundle before its own code. */
      setupFiles?: string[];
      /** `turnlens test --mutate`: testWorkflow calls numbered, maybe one entry changed (core/testing/scriptMutation.ts). */
      mutation?: MutationPlan;
      /** Line coverage of the project's files the bundle holds, sent back with `done` (v8Coverage.ts). */
      coverage?: true;
      /** Which snapshots are written (`-u`: all, a CI: none); absent, snapshotRun.ts's default. */
      updateSnapshot?: "all" | "new" | "none";
      /** The config's define, env and `.env` folder (viteSettings.ts). */
      vite?: ViteSettings;
      /** This worker's VITEST_POOL_ID and VITEST_WORKER_ID. */
      ids?: WorkerIds;
      /** Record what the file's code reached as it ran, sent back with `done` (`--cache`). */
      reach?: true;
    }
  /** Files the pool will send this worker next (and to no other unless it is idle): bundle them now. */
  | { type: "ahead"; files: string[]; setupFiles?: string[]; coverage?: true; vite?: ViteSettings }
  | { type: "exit" };

export type WorkerMessage =
  | { type: "ready" }
  /**
   * The worker's last word as it exits when asked, sent only when nothing started a process or a
   * thread in it since its first file began (leftovers.ts): the pool need not search /proc for its tag.
   */
  | { type: "leaving" }
  | { type: "event"; file: string; event: RunEvent }
  /** What the file's tests wrote to stdout or stderr, in order, for the test that is running. */
  | { type: "output"; file: string; stream: "stdout" | "stderr"; text: string }
  /**
   * The file is done. Its tests crossed the channel once each, as `test` events; this carries
   * only what the file itself ended with, and the worker's memory after it.
   */
  | {
      type: "done";
      file: string;
      durationMs: number;
      rss: number;
      /**
       * The builtins the file changed ("Promise.prototype.then", "the global x (added)"), put back
       * by the worker, which the pool replaces before its next file (realmCheck.ts).
       */
      changedBuiltins?: string[];
      error?: ErrorReport;
      schemas?: SchemaName[];
      /**
       * The absolute paths of the project files the file's bundle read, the file first (not
       * node_modules, not the served modules); absent when it was never bundled.
       */
      inputs?: string[];
      /** With a `reach` run: what the file's code reached as it ran (runFile.ts's FileReach); absent when it never ran. */
      reach?: FileReach;
      /** With a `coverage` run: Istanbul's data of each project file the bundle holds, by absolute path. */
      coverage?: LineCoverageData;
      /** The file's snapshots (report.ts's `FileReport.snapshots`). */
      snapshots?: FileReport["snapshots"];
    };

const site = Type.Object({ file: Type.String(), line: Type.Number(), column: Type.Number() });
const testInfo = Type.Object({ id: Type.String(), name: Type.String(), path: Type.Array(Type.String()), location: Type.Optional(site) });
const errorReport = Type.Object({ message: Type.String(), location: Type.Optional(site) });
const testReport = Type.Object({
  id: Type.String(),
  name: Type.String(),
  path: Type.Array(Type.String()),
  status: Type.Union([Type.Literal("passed"), Type.Literal("failed"), Type.Literal("skipped"), Type.Literal("todo")]),
  durationMs: Type.Number(),
  location: Type.Optional(site),
  error: Type.Optional(errorReport),
  runs: Type.Array(Type.Object({})),
});
const phase = Type.Union([
  Type.Object({ kind: Type.Union([Type.Literal("bundle"), Type.Literal("load")]) }),
  Type.Object({ kind: Type.Union([Type.Literal("beforeAll"), Type.Literal("afterAll")]), suite: Type.Array(Type.String()) }),
  Type.Object({ kind: Type.Literal("test"), test: testInfo }),
]);
const event = Type.Union([
  Type.Object({ type: Type.Literal("phase"), phase, deadlineMs: Type.Number({ minimum: 0 }) }),
  Type.Object({ type: Type.Literal("collected"), tests: Type.Array(testInfo) }),
  Type.Object({ type: Type.Literal("test"), report: testReport }),
]);
const counts = Type.Record(Type.String(), Type.Number());
/** Istanbul's data of one file, as the parent's istanbul-lib-coverage reads it: a malformed one fails the file. */
const fileCoverage = Type.Object({
  path: Type.String(),
  statementMap: Type.Record(Type.String(), Type.Object({})),
  fnMap: Type.Record(Type.String(), Type.Object({})),
  branchMap: Type.Record(Type.String(), Type.Object({})),
  s: counts,
  f: counts,
  b: Type.Record(Type.String(), Type.Array(Type.Number())),
});
const schemaName = Type.Object({ schema: Type.String(), name: Type.String(), module: Type.String(), skeleton: Type.Optional(Type.Unknown()) });

const messages: Record<WorkerMessage["type"], TSchema> = {
  ready: Type.Object({ type: Type.Literal("ready") }),
  leaving: Type.Object({ type: Type.Literal("leaving") }),
  event: Type.Object({ type: Type.Literal("event"), file: Type.String(), event }),
  output: Type.Object({ type: Type.Literal("output"), file: Type.String(), stream: Type.Union([Type.Literal("stdout"), Type.Literal("stderr")]), text: Type.String() }),
  done: Type.Object({
    type: Type.Literal("done"),
    file: Type.String(),
    durationMs: Type.Number(),
    rss: Type.Number(),
    changedBuiltins: Type.Optional(Type.Array(Type.String())),
    error: Type.Optional(errorReport),
    schemas: Type.Optional(Type.Array(schemaName)),
    inputs: Type.Optional(Type.Array(Type.String())),
    reach: Type.Optional(
      Type.Object({
        reads: Type.Array(Type.String()),
        wroteOutside: Type.Optional(Type.String()),
        started: Type.Optional(Type.Literal(true)),
        network: Type.Optional(Type.Literal(true)),
      }),
    ),
    coverage: Type.Optional(Type.Record(Type.String(), fileCoverage)),
    snapshots: Type.Optional(Type.Object({ snapshotFile: Type.String(), failures: Type.Array(Type.Object({ key: Type.String(), file: Type.String() })) })),
  }),
};
let validators: Map<string, Validator> | undefined;

/** The message, or why it is not one a worker may send. */
export function readWorkerMessage(raw: unknown): { message: WorkerMessage } | { refused: string } {
  validators ??= new Map(Object.entries(messages).map(([type, schema]) => [type, Compile(schema)]));
  const type = typeof raw === "object" && raw !== null ? (raw as { type?: unknown }).type : undefined;
  const validator = typeof type === "string" ? validators.get(type) : undefined;
  if (!validator) return { refused: `a message of type ${JSON.stringify(type ?? null)}, which is none a worker sends` };
  if (validator.Check(raw)) return { message: raw as WorkerMessage };
  const [first] = validator.Errors(raw) as Array<{ instancePath: string; message: string }>;
  return { refused: `a "${type}" message whose ${first?.instancePath || "body"} ${first?.message ?? "is malformed"}` };
}
