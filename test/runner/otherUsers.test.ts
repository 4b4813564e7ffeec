// Other users and other PID namespaces sharing one TMPDIR (the reliability cases
// shared-tmp-bundle-swap, CLI and language server, and pid-namespace-cleanup): Turnlens's temporary
// files are in a folder of the user's own, another user's folder is never used, and a run in
// another namespace never removes a live run's files. Another user is `nobody`, through setpriv, as the cases' scripts do; that and
// unshare need root, which CI has: there a missing root fails, elsewhere the tests are skipped.
import { afterAll, describe, expect, test } from "bun:test";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { type CliResult, FIXTURES, ROOT, SLOW, withoutAgentOrCi } from "./harness.ts";

const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];
const isRoot = process.getuid?.() === 0;
const inCi = Boolean(process.env.CI);
const hasTools = ["setpriv", "unshare"].every((tool) => spawnSync(tool, ["--version"], { stdio: "ignore" }).error === undefined);
const BIN = join(ROOT, "bin", "turnlens.mjs");

const scratch: string[] = [];
afterAll(() => {
  for (const folder of scratch) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder every user can reach and write, sticky as /tmp is: the shared TMPDIR. */
function sharedTmp(): string {
  if (!isRoot || !hasTools) throw new Error("these tests run as root with setpriv and unshare (util-linux): CI runs them so, as .ci/run does");
  const folder = mkdtempSync(join(tmpdir(), "turnlens-shared-tmp-"));
  scratch.push(folder);
  chmodSync(folder, 0o1777);
  return folder;
}

/** A project folder in `shared` holding the fixture `name`'s files, readable by everyone. */
function project(shared: string, name: string): string {
  const folder = join(shared, `project-${name}`);
  mkdirSync(folder, { mode: 0o755 });
  for (const file of readdirSync(join(FIXTURES, name))) copyFileSync(join(FIXTURES, name, file), join(folder, file));
  return folder;
}

/** `command args` run to its end, as `nobody` when asked, with its output. */
function run(command: string, args: string[], cwd: string, env: Record<string, string>, asNobody = false): Promise<CliResult> {
  const [program, argv] = asNobody ? ["setpriv", [...NOBODY, command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const child = spawn(program, argv, { cwd, env: { ...process.env, NO_COLOR: "1", ...withoutAgentOrCi(), ...env } as NodeJS.ProcessEnv });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr, lastLine: stdout.trim().split("\n").at(-1) ?? "" }));
  });
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * Another user (nobody) plants Turnlens's temporary folder in `shared` under its name before (one per
 * install) and now (one per user), both open to all; resolves once both are there. `pwned` appears if
 * any of the attacker's code runs.
 */
async function plantFolders(shared: string): Promise<{ pwned: string; now: string; planting: ChildProcess }> {
  const attacker = join(shared, "attacker.cjs");
  copyFileSync(join(FIXTURES, "sharedTmpBundleSwap", "attacker.cjs"), attacker);
  chmodSync(attacker, 0o644);
  const pwned = join(shared, "PWNED");
  const before = join(shared, `turnlens-${createHash("sha1").update(ROOT).digest("hex").slice(0, 10)}`);
  const now = join(shared, "turnlens-0");
  const planting = spawn("setpriv", [...NOBODY, process.execPath, attacker, pwned, "60000", before, now], { stdio: ["ignore", "pipe", "ignore"] });
  await new Promise<void>((resolve) => planting.stdout.on("data", (chunk: Buffer) => chunk.toString().includes("planted") && resolve()));
  return { pwned, now, planting };
}

const tests = [
  {
    name: "another user's folder planted where Turnlens's would be is never used: the run refuses it by name and runs none of its code",
    async run() {
      const shared = sharedTmp();
      const victim = project(shared, "sharedTmpBundleSwap");
      const { pwned, now, planting } = await plantFolders(shared);
      try {
        expect(statSync(now).uid).toBe(65534);
        for (let attempt = 1; attempt <= 3; attempt++) {
          const result = await run(process.execPath, [BIN, "test", "innocent.test.ts"], victim, { TMPDIR: shared });
          expect({ attempt, code: result.code, stderr: result.stderr, ran: existsSync(pwned) }).toEqual({
            attempt,
            code: 2,
            stderr: `turnlens: Turnlens's temporary folder ${now} is not private to you: it belongs to uid 65534, not to you (uid 0). Another user may have made it to have you run their code, so Turnlens does not use it. Remove it (as its owner or root), or set TMPDIR to a folder of your own.\n`,
            ran: false,
          });
        }
      } finally {
        planting.kill("SIGKILL");
      }
    },
  },
  {
    name: "the language server with another user's folder planted runs none of their code, before initialize or after, and says why on the file",
    async run() {
      const shared = sharedTmp();
      const { pwned, now, planting } = await plantFolders(shared);
      // Started as server.sh starts it: its first worker warms up at once, before any initialize.
      const server = spawn(process.execPath, [join(ROOT, "dist", "server.js"), "--stdio"], {
        env: { ...process.env, TMPDIR: shared },
        stdio: ["pipe", "pipe", "ignore"],
      });
      const connection = createMessageConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
      connection.onError(() => {});
      connection.listen();
      try {
        const path = join(ROOT, "examples", "mistakes", "turn-past-list.test.ts");
        const uri = pathToFileURL(path).href;
        const published = new Promise<Array<{ code?: unknown; message: string }>>((resolve) =>
          connection.onNotification("textDocument/publishDiagnostics", (params: { uri: string; diagnostics: Array<{ code?: unknown; message: string }> }) => {
            if (params.uri === uri && params.diagnostics.length > 0) resolve(params.diagnostics);
          }),
        );
        await connection.sendRequest("initialize", { processId: null, rootUri: pathToFileURL(ROOT).href, capabilities: {}, initializationOptions: {} });
        await connection.sendNotification("initialized", {});
        await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "typescript", version: 1, text: readFileSync(path, "utf8") } });
        // Without the fix the attacker's module runs (and the file then declares no test): that ends the wait too.
        const diagnostics = await Promise.race([published, until(() => existsSync(pwned)).then(() => [{ code: "PWNED", message: readFileSync(pwned, "utf8") }])]);
        expect(diagnostics.map(({ code, message }) => ({ code, message }))).toEqual([
          {
            code: "file-failed",
            message: `turnlens failed to run the file: TempFolderError: Turnlens's temporary folder ${now} is not private to you: it belongs to uid 65534, not to you (uid 0). Another user may have made it to have you run their code, so Turnlens does not use it. Remove it (as its owner or root), or set TMPDIR to a folder of your own.`,
          },
        ]);
        expect(existsSync(pwned)).toBe(false);
        await connection.sendRequest("shutdown");
      } finally {
        server.kill("SIGKILL");
        planting.kill("SIGKILL");
        connection.dispose();
      }
    },
  },
  {
    name: "two users of one install each run in one TMPDIR, root then nobody, each in a folder of their own with mode 700",
    async run() {
      const shared = sharedTmp();
      const folder = project(shared, "sharedTmpBundleSwap");
      const root = await run(process.execPath, [BIN, "test", "innocent.test.ts"], folder, { TMPDIR: shared });
      const nobody = await run(process.execPath, [BIN, "test", "innocent.test.ts"], folder, { TMPDIR: shared }, true);
      expect([root.code, root.lastLine, nobody.code, nobody.lastLine, nobody.stderr]).toEqual([0, "1 passed, 0 failed", 0, "1 passed, 0 failed", ""]);
      const owned = (name: string) => {
        const stat = statSync(join(shared, name));
        return { uid: stat.uid, mode: (stat.mode & 0o777).toString(8), left: readdirSync(join(shared, name)) };
      };
      expect([owned("turnlens-0"), owned("turnlens-65534")]).toEqual([
        { uid: 0, mode: "700", left: [] },
        { uid: 65534, mode: "700", left: [] },
      ]);
    },
  },
  {
    name: "a run in another PID namespace sharing TMPDIR never removes a live run's files as a dead pid's",
    async run() {
      const shared = sharedTmp();
      const folder = project(shared, "pidNamespaceCleanup");
      const go = join(shared, "go");
      const host = run(process.execPath, [BIN, "test", "host.test.ts"], folder, { TMPDIR: shared, TURNLENS_GO: go });
      // The host's run folder exists (before: `turnlens-run-<pid>-…` in TMPDIR; now: `run-<n>` in its process's folder).
      const runFolders = () =>
        readdirSync(shared, { recursive: true, encoding: "utf8" }).filter((path) => /(^|\/)(turnlens-)?run-[^/]*$/.test(path) && !path.includes("project-"));
      await until(() => runFolders().length > 0);
      for (let attempt = 1; attempt <= 2; attempt++) {
        const other = await run("unshare", ["--pid", "--fork", "--mount-proc", process.execPath, BIN, "test", "other.test.ts"], folder, { TMPDIR: shared });
        expect([attempt, other.code, other.lastLine]).toEqual([attempt, 0, "1 passed, 0 failed"]);
      }
      writeFileSync(go, "");
      const result = await host;
      expect([result.code, result.lastLine]).toEqual([0, "1 passed, 0 failed"]);
    },
  },
];

describe("Turnlens's temporary files, among other users and PID namespaces", () => {
  for (const { name, run: body } of tests) {
    if (!(isRoot && hasTools) && !inCi) test.skip(`${name} (skipped: needs root, setpriv and unshare; CI runs it)`, () => {});
    else test(name, body, SLOW);
  }
});
