// A child process of the worker pool (`turnlens test` and the language server): runs the files the
// parent sends (from disk, or an editor's unsaved text), one at a time, and reports progress over
// IPC so the parent can kill it when a test blocks the event loop. It dies with its parent.
import { timerDelay } from "./limits.ts";
import { exitProcess, guardProcess } from "./processGuard.ts";
import { watchParent } from "./parentWatch.ts";
import { killGroup, killTagged, tagDescendants, workerTag } from "./processTree.ts";
import { type FileReach, runTestFile } from "./runFile.ts";
import { mapBundleFrame } from "./bundleMaps.ts";
import { useFrameMapper } from "../testing/stackText.ts";
import { installRuntimeImport } from "./runtimeImport.ts";
import { bundleAhead, claimBundledAhead, startBundler, useCoverageBundles, useSetupFiles } from "./transform.ts";
import { applyViteSettings, useViteSettings } from "./viteSettings.ts";
import { removeStaleTempFiles } from "../tempFolder/tempFiles.ts";
import { captureOutput, endOutputOfTest } from "./testOutput.ts";
import type { ParentMessage, WorkerMessage } from "./workerMessages.ts";
import type { FileReport } from "./report.ts";
import { findSchemaNames, type SchemaName, wantedSchemas } from "./schemaNames.ts";
import { installTestGlobals } from "../testApi/testGlobals.ts";
import { installImportMetaEnv } from "../testApi/stubs.ts";
import { installFileScopes, startedProcesses } from "./leftovers.ts";
import { installFileSystemReach } from "./fileSystemReach.ts";
import { installNetworkUse } from "./networkUse.ts";
import { changedServedModules, registry } from "./served.ts";
import { changedBuiltins, pictureBuiltins } from "./realmCheck.ts";
import { giveRunnerItsTimers } from "./runnerTimers.ts";
import { ObjectGetOwnPropertyDescriptor, ObjectHasOwn, ReflectApply, safeJson } from "./primordials.ts";
import { type LineCoverageData, type LoadedBundle, startCoverage, stopCoverage, takeCoverage } from "./v8Coverage.ts";

const tag = workerTag(process.pid);
// Everything this worker starts (esbuild's service, what tests spawn) carries its tag.
tagDescendants(tag);
watchParent(process.ppid, tag);
process.setSourceMapsEnabled(true);
// A test's call sites are mapped through its bundle's map, kept two files, not Node's cache (bundleMaps.ts).
useFrameMapper(mapBundleFrame);

// The channel is the runner's: tests get no process.send to write to it with, and Node's
// underlying process._send refuses any message but this module's.
const channel = process.send?.bind(process);
process.send = undefined;
// Saved now: a test may replace process.nextTick as it may any property of `process`.
const nextTick = process.nextTick;
let sending = false;
const internals = process as unknown as { _send?: (...args: unknown[]) => unknown };
const underlyingSend = internals._send;
if (underlyingSend) {
  internals._send = function (this: unknown, ...args: unknown[]) {
    if (!sending) throw new Error("the worker's IPC channel is turnlens's own; a test cannot send on it");
    return ReflectApply(underlyingSend, this, args);
  };
}
guardProcess();
// The picture of the builtins each file is compared with, once the worker's own globals are in.
// (and the runner's own: the file scope's timer wrappers, the served modules' registry).
installTestGlobals();
installFileScopes();
installFileSystemReach();
installNetworkUse();
registry();
installImportMetaEnv();
giveRunnerItsTimers();
installRuntimeImport();
pictureBuiltins();

/** The parent is gone: kill what this worker started, and the worker, at once. */
function dieWithTree(): never {
  killTagged(tag);
  killGroup(process.pid);
  return exitProcess(1);
}

// Writing to a parent that is gone must end the worker, not spin on EPIPE.
for (const stream of [process.stdout, process.stderr]) stream.on("error", () => dieWithTree());

let inFlight = 0;
const drained: Array<() => void> = [];
/**
 * A test's report and the list of collected tests wait (at most until the current tick's microtasks
 * end) to leave with the next message: a test's report and the next test's phase cross as one
 * message. Whatever comes before user code runs (a phase) or may be the last word before a kill
 * (output) leaves at once, with what waited before it, in order.
 */
let waiting: WorkerMessage[] = [];
function send(message: WorkerMessage): void {
  if (message.type === "event" && message.event.type !== "phase") {
    waiting[waiting.length] = message;
    if (waiting.length === 1) nextTick(flush);
    return;
  }
  waiting[waiting.length] = message;
  flush();
}

function flush(): void {
  if (waiting.length === 0) return;
  const batch = waiting;
  waiting = [];
  write(batch.length === 1 ? batch[0] : batch);
}

/**
 * Whether Node's own JSON of a message would read something a test can change: a `toJSON` on the
 * prototypes every message's objects and arrays have. Then the worker writes the JSON itself
 * (primordials.ts) and sends the text, which the pool parses.
 */
function prototypesTouchJson(): boolean {
  return ObjectHasOwn(Object.prototype, "toJSON") || ObjectHasOwn(Array.prototype, "toJSON") || ObjectGetOwnPropertyDescriptor(globalThis, "JSON")?.value !== savedJson;
}
const savedJson = JSON;

function write(message: WorkerMessage | WorkerMessage[] | undefined): void {
  if (!channel || message === undefined) return;
  inFlight++;
  sending = true;
  try {
    const payload = prototypesTouchJson() ? safeJson(message) : message;
    channel(payload, undefined, undefined, (error: Error | null) => {
      inFlight--;
      if (error) dieWithTree();
      if (inFlight === 0) for (const resolve of drained.splice(0)) resolve();
    });
  } catch {
    dieWithTree();
  } finally {
    sending = false;
  }
}

/** Exits once every message and every byte of output has left. */
async function exitWhenFlushed(): Promise<never> {
  flush();
  if (inFlight > 0) await new Promise<void>((resolve) => drained.push(resolve));
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write("", () => resolve()))));
  // Nothing but the runner's own esbuild service (in this process group, which the pool kills)
  // can carry this worker's tag unless something started a process since the first file began:
  // then /proc is searched here, and else the pool is told, in the same tick as the exit (no test
  // code runs between), that it need not search it either. A message that does not get through
  // whole before the exit is lost, and the pool searches.
  if (startedProcesses()) killTagged(tag);
  else write({ type: "leaving" });
  return exitProcess(0);
}

// Saved now: a test may replace process's own methods.
const processListeners = process.listeners.bind(process);
const removeProcessListener = process.removeListener.bind(process);
const exitListeners = () => processListeners("exit");
const removeExitListener = (listener: NodeJS.ExitListener) => removeProcessListener("exit", listener);

async function runOne(message: Extract<ParentMessage, { type: "run" }>): Promise<void> {
  // An exit handler a file adds is the file's: it never runs in another file's worker exit (one
  // that never returns hung the run at the end).
  const exitListenersBefore = exitListeners();
  const pattern = message.pattern ? new RegExp(message.pattern.source, message.pattern.flags) : undefined;
  let report: FileReport;
  let inputs: string[] | undefined;
  let reach: FileReach | undefined;
  let bundle: LoadedBundle | undefined;
  // Counting starts before the bundle compiles, or its functions' blocks go uncounted.
  await (message.coverage ? startCoverage() : stopCoverage()).catch(() => {});
  captureOutput((stream, text) => send({ type: "output", file: message.file, stream, text }));
  try {
    report = await runTestFile({
      file: message.file,
      timeoutMs: message.timeoutMs,
      ...(pattern ? { testNamePattern: pattern } : {}),
      ...(message.onlyIds ? { onlyIds: message.onlyIds } : {}),
      ...(message.source !== undefined ? { source: message.source } : {}),
      ...(message.sources ? { sources: message.sources } : {}),
      onInputs: (read) => {
        inputs = read;
      },
      ...(message.reach
        ? {
            onReach: (reached: FileReach) => {
              reach = reached;
            },
          }
        : {}),
      ...(message.traces === false ? { traces: false as const } : {}),
      ...(message.mutation ? { mutation: message.mutation } : {}),
      ...(message.updateSnapshot ? { updateSnapshot: message.updateSnapshot } : {}),
      ...(message.coverage
        ? {
            onBundle: (loaded: LoadedBundle) => {
              bundle = loaded;
            },
          }
        : {}),
      // A deadline past what a timer holds (Infinity included) is sent as the longest one.
      onEvent: (event) => {
        // A test's output (and the note of what was cut) reaches the pool before its report.
        if (event.type === "test") endOutputOfTest();
        send({ type: "event", file: message.file, event: event.type === "phase" ? { ...event, deadlineMs: timerDelay(event.deadlineMs) } : event });
      },
    });
  } catch (error) {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    report = { file: message.file, tests: [], durationMs: 0, error: { message: `turnlens failed to run the file: ${text}` } };
  }
  captureOutput(null);
  for (const listener of exitListeners()) if (!exitListenersBefore.includes(listener)) removeExitListener(listener);
  // What the file changed in the builtins is put back here, before anything more of the runner's
  // runs, and named in `done`; the pool replaces this worker before its next file.
  const changed = [...changedBuiltins(), ...changedServedModules()];
  const schemas = await schemasFor(message.file, message.schemaModules, report);
  const coverage = message.coverage && bundle ? await coverageOf(bundle, message.file, message.setupFiles ?? []) : undefined;
  send({
    type: "done",
    file: message.file,
    durationMs: report.durationMs,
    rss: process.memoryUsage.rss(),
    ...(changed.length > 0 ? { changedBuiltins: changed } : {}),
    ...(report.error ? { error: report.error } : {}),
    ...(report.snapshots ? { snapshots: report.snapshots } : {}),
    ...(schemas.length > 0 ? { schemas } : {}),
    ...(inputs ? { inputs } : {}),
    ...(reach ? { reach } : {}),
    ...(coverage && Object.keys(coverage).length > 0 ? { coverage } : {}),
  });
}

/**
 * The file's line coverage, taken once the builtins it changed are back (the converter runs on
 * them). The test file and the setup files are the tests, not the code under test. A conversion
 * that fails costs the file its coverage, never its report.
 */
async function coverageOf(bundle: LoadedBundle, file: string, setupFiles: readonly string[]): Promise<LineCoverageData | undefined> {
  try {
    return await takeCoverage(bundle, new Set([file, ...setupFiles]));
  } catch {
    return undefined;
  }
}

process.on("message", (raw) => {
  const message = raw as ParentMessage;
  if (message.type === "exit") void exitWhenFlushed();
  if (message.type === "run") {
    useSetupFiles(message.setupFiles ?? []);
    applyViteSettings(message.vite, message.ids);
    useCoverageBundles(message.coverage === true);
    // Now, before the list of files bundled ahead that follows this message replaces the one this run was sent against.
    claimBundledAhead(message.file);
    void runOne(message);
  }
  if (message.type === "ahead") {
    useSetupFiles(message.setupFiles ?? []);
    useViteSettings(message.vite);
    useCoverageBundles(message.coverage === true);
    bundleAhead(message.files);
  }
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

process.on("disconnect", () => dieWithTree());
// Ctrl-C is the command's to handle (it stops the run and kills this worker); a worker the
// terminal's signal reached too must not die of it first and be reported as a crash.
process.on("SIGINT", () => {});
// The parent may have gone before this listener existed.
if (!process.connected) dieWithTree();
send({ type: "ready" });
// esbuild's service starts while the first file is on its way, not when it has arrived. It is a Go
// program, whose scheduler runs a thread a core and keeps idle ones spinning for work between the
// plugin's callbacks; a worker bundles one build at a time, and its test files are small, so one
// thread does the same work for less CPU (docs/runner.md, Speed). A GOMAXPROCS the user set stands;
// the variable is the service's alone, gone from the worker's environment before any test runs.
const goThreadsSet = process.env.GOMAXPROCS !== undefined;
if (!goThreadsSet) process.env.GOMAXPROCS = "1";
startBundler();
if (!goThreadsSet) delete process.env.GOMAXPROCS;
// Temporary files of workers killed earlier (the pool that owned them killed too) go, once the
// worker has said it is ready: listing a busy temp folder must not delay the first file.
setImmediate(() => removeStaleTempFiles());
