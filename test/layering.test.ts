// The dependency invariants of ARCHITECTURE.md, checked on every source file's imports:
// core ← server ← extension, core knows nothing of LSP or VS Code, the extension sees only the protocol.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.ts$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => join(folder, file));
}

function importsOf(file: string): Array<{ specifier: string; target: string }> {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT)].map((match) => {
    const specifier = (match[1] ?? match[2] ?? match[3])!;
    const target = specifier.startsWith(".") ? relative(ROOT, resolve(join(ROOT, file, ".."), specifier)) : specifier;
    return { specifier, target };
  });
}

function offending(folder: string, refused: (target: string) => boolean): string[] {
  return sourceFiles(folder).flatMap((file) =>
    importsOf(file)
      .filter(({ target }) => refused(target))
      .map(({ specifier }) => `${file} imports ${specifier}`),
  );
}

test("core imports nothing from the server, the extension, LSP or VS Code", () => {
  expect(offending("core", (target) => /^(server|extension)\//.test(target) || /^vscode(-languageserver|-languageclient|$)/.test(target))).toEqual([]);
});

test("the server imports nothing from the extension and never VS Code itself", () => {
  expect(offending("server", (target) => target.startsWith("extension/") || target === "vscode" || target.startsWith("vscode-languageclient"))).toEqual([]);
});

test("the extension imports from the server only its protocol, and nothing from core", () => {
  expect(offending("extension", (target) => (target.startsWith("server/") && target !== "server/protocol.ts") || target.startsWith("core/"))).toEqual([]);
});

// core's rooms, lowest first: a room imports only from its own layer or the layers before it.
const CORE_LAYERS = [["workflow", "tempFolder"], ["client"], ["testing"], ["testApi"], ["execution"], ["project", "mutate", "record", "coverage"], ["runner", "vitest"]];

function coreLayerOf(path: string): number | undefined {
  const room = /^core\/([^/]+)\//.exec(path)?.[1];
  const layer = CORE_LAYERS.findIndex((rooms) => rooms.includes(room ?? ""));
  return layer < 0 ? undefined : layer;
}

test("every folder of core is a room in CORE_LAYERS", () => {
  const rooms = readdirSync(join(ROOT, "core"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  expect(rooms.filter((room) => coreLayerOf(`core/${room}/`) === undefined)).toEqual([]);
});

test("a room of core imports only from its own layer or the layers below it", () => {
  const upward = sourceFiles("core").flatMap((file) =>
    importsOf(file)
      .filter(({ target }) => (coreLayerOf(target) ?? -1) > (coreLayerOf(file) ?? -1))
      .map(({ specifier }) => `${file} imports ${specifier}`),
  );
  expect(upward).toEqual([]);
});

test("the server never imports the command line (core/runner/): what it shares with the CLI lives in core's lower rooms", () => {
  expect(offending("server", (target) => target.startsWith("core/runner/"))).toEqual([]);
});

test("the server's views hold no connection and no state: they import no feature, no scheduler, no server state", () => {
  expect(offending("server/views", (target) => /^server\/(features|workflowFiles)\//.test(target) || /^server\/(server|state|scheduler|main)\.ts$/.test(target))).toEqual(
    [],
  );
});

test("one record per test document, which the scheduler asks the state for: the state never calls the scheduler back", () => {
  // The state imports nothing of the scheduler, and no one hangs a hook on the state for it to call.
  expect(offending("server", (target) => target === "server/scheduler.ts").filter((line) => line.startsWith("server/state.ts "))).toEqual([]);
  expect(importsOf("server/scheduler.ts").some(({ target }) => target === "server/state.ts")).toBe(true);
  expect(filesContaining(["server"], /\bstate\.\w+ = \(/)).toEqual([]);
  // A document's runs are a part of its record, not a second map in the scheduler.
  expect(readFileSync(join(ROOT, "server/state.ts"), "utf8")).toMatch(/^ {2}runs: DocumentRuns;$/m);
  expect(filesContaining(["server"], /new Map<string, DocumentRuns>/)).toEqual([]);
});

test("server/features/ holds only registrars: each file exports register(server), only server.ts and other registrars import one, and views leave", () => {
  const features = sourceFiles("server/features");
  expect(features.length).toBeGreaterThan(10);
  expect(features.filter((file) => !/^export function register\(server: Server\): void \{/m.test(readFileSync(join(ROOT, file), "utf8")))).toEqual([]);
  const outside = sourceFiles("server").filter((file) => !file.startsWith("server/features/") && file !== "server/server.ts");
  expect(
    outside.flatMap((file) =>
      importsOf(file)
        .filter(({ target }) => target.startsWith("server/features/"))
        .map(({ specifier }) => `${file} imports ${specifier}`),
    ),
  ).toEqual([]);
  // What a registrar exports besides register: testFiles.ts's `turnlens/testFilesChanged`, which file watching sends.
  const exported = features.flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(/^export (?:async )?(?:function|class) (\w+)/gm)]
      .filter(([, name]) => name !== "register")
      .map(([, name]) => `${file}: ${name}`),
  );
  expect(exported).toEqual(["server/features/testFiles.ts: configFilesAmong"]);
});

test("per-feature state is kept on the Server (made in startServer), never in a module WeakMap keyed by the server", () => {
  expect(filesContaining(["server"], /new WeakMap<Server\b/)).toEqual([]);
});

test("the extension's files that import no vscode are the ones in extension/vscodeFree/, and those never import it", () => {
  expect(offending("extension/vscodeFree", (target) => target === "vscode")).toEqual([]);
  const rootFiles = readdirSync(join(ROOT, "extension")).filter((file) => file.endsWith(".ts"));
  expect(rootFiles.filter((file) => !importsOf(`extension/${file}`).some(({ target }) => target === "vscode"))).toEqual([]);
});

test("the check sees imports at all, so an empty answer means something", () => {
  expect(importsOf("server/server.ts").length).toBeGreaterThan(3);
  expect(importsOf("extension/main.ts").some(({ target }) => target === "extension/vscodeFree/commands.ts")).toBe(true);
});

// The runner's invariants (ARCHITECTURE.md, "The runner"), as far as they can be read from the code.

function filesContaining(folders: string[], pattern: RegExp): string[] {
  return folders.flatMap(sourceFiles).filter((file) => pattern.test(readFileSync(join(ROOT, file), "utf8")));
}

test("only core's worker pool starts worker processes: nothing else in core, server or the extension forks one", () => {
  // changedFiles.ts runs git for `--changed` (execFileSync), never a worker. configLoader.ts forks a
  // script config's own process (configProcess.ts), which is no worker: it runs no test, sends one
  // message and is killed.
  expect(filesContaining(["core", "server"], /from "node:child_process"/)).toEqual([
    "core/execution/pool.ts",
    "core/execution/workerProcess.ts",
    "core/project/configLoader.ts",
    "core/runner/changedFiles.ts",
  ]);
  const forking = filesContaining(["core", "server", "extension"], /from "node:child_process"/).filter((file) => /\bfork\(/.test(readFileSync(join(ROOT, file), "utf8")));
  expect(forking).toEqual(["core/execution/workerProcess.ts", "core/project/configLoader.ts"]);
});

test("one pool: the watchdog, the crash report and the resume rule are written once, in core/execution/pool.ts", () => {
  expect(filesContaining(["core", "server"], /class WorkerPool\b/)).toEqual(["core/execution/pool.ts"]);
  expect(filesContaining(["core", "server"], /did not finish within its/)).toEqual(["core/execution/pool.ts"]);
  expect(filesContaining(["core", "server"], /ended its worker process/)).toEqual(["core/execution/pool.ts"]);
  expect(offending("server", (target) => target === "server/workers.ts")).toEqual([]);
});

test("what a worker sends is read in one place, through the message check, and only the worker writes to the channel", () => {
  // earlyWorker.ts holds the messages of `turnlens test`'s first worker, unread, until the pool takes it and reads them.
  // configLoader.ts reads the one message of a script config's process (configProcess.ts sends it), no worker's.
  expect(filesContaining(["core", "server"], /\.on\("message"/)).toEqual([
    "core/execution/pool.ts",
    "core/execution/worker.ts",
    "core/project/configLoader.ts",
    "core/runner/earlyWorker.ts",
  ]);
  expect(filesContaining(["core", "server"], /readWorkerMessage\(/)).toEqual(["core/execution/pool.ts", "core/execution/workerMessages.ts"]);
  expect(filesContaining(["core", "server"], /process\.send\b/)).toEqual(["core/execution/worker.ts", "core/project/configProcess.ts"]);
});

test("every worker is forked detached, as the leader of its own process group", () => {
  const text = readFileSync(join(ROOT, "core/execution/workerProcess.ts"), "utf8");
  expect(text).toMatch(/detached: process\.platform !== "win32"/);
});

test("the runner's limits (timer maximum, output cap, recycle rule) are numbers in core/execution/limits.ts only", () => {
  expect(filesContaining(["core", "server"], /2 \*\* 31|2147483647|4 \* 1024 \* 1024/)).toEqual(["core/execution/limits.ts"]);
});

test("the server's numbers (grace periods, delays, timeouts, caps) are constants in server/limits.ts only, each named for what it is for", () => {
  // A top-level constant holding a number (the protocol's version is a name, not a limit), or a number written where a run, a worker or a timer is given one.
  expect(filesContaining(["server"], /^(?:export )?const (?!PROTOCOL_VERSION\b)[A-Z][A-Z0-9_]* = \d/m)).toEqual(["server/limits.ts"]);
  expect(filesContaining(["server"], /timeoutMs: \d|new AbandonWork\(\d|max-old-space-size=\d|setTimeout\([^;]*, \d+\)/)).toEqual([]);
  // The two graces differ on purpose (an abandoned background run, a cancelled assertion check): one name each.
  expect(filesContaining(["server"], /new AbandonWork\(ABANDONED_RUN_GRACE_MS\)/)).toEqual(["server/scheduler.ts"]);
  expect(filesContaining(["server"], /new AbandonWork\(ABANDONED_CHECK_GRACE_MS\)/).length).toBe(1);
  expect(filesContaining(["core", "server"], /ABANDON_GRACE_MS/)).toEqual([]);
});

test("the CLI and the server own their process trees, and every worker watches its parent", () => {
  for (const entry of ["core/runner/cli.ts", "server/main.ts"]) expect(readFileSync(join(ROOT, entry), "utf8")).toMatch(/ownProcessTree\(\);/);
  expect(readFileSync(join(ROOT, "core/execution/worker.ts"), "utf8")).toMatch(/watchParent\(process\.ppid, tag\);/);
});
