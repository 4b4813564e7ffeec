// A user's project with Turnlens installed from this repository's `npm pack` tarball, for tests of the
// package as users get it (test/package/). It is in the OS temp dir with no link to the repository.
//
//   const tarball = await packedTarball();        // packs once per process (= per test file)
//   const project = await installedProject();     // a fresh folder: `npm install <tarball> typescript`
//   const result = await project.run("npx", ["turnlens", "test"]);   // { code, stdout, stderr, lastLine }
//   const moved = project.copyTo();               // the same project at a second temp path
//   project.remove(); moved.remove();
//
// API:
// - `packedTarball(): Promise<Tarball>`: `npm pack --ignore-scripts` of the repository into a temp
//   folder, once per process; `{ path, files, size, unpackedSize }` as npm reports them. Scripts are
//   ignored because `prepack` rebuilds dist/ (deleting it first) while other test files use it:
//   `npm test` builds before it runs the tests, and a single file needs `npm run build` first.
// - `installedProject({ packages? }): Promise<InstalledProject>`: a new temp folder with a package.json
//   and `npm install <tarball> typescript@<the repo's version> ...packages`. npm reads its cache first
//   (`--prefer-offline`) and downloads nothing but the registry's own packages.
// - `InstalledProject.dir`, `.run(command, args, { cwd?, env?, input? })` (spawned in `dir`, or `cwd`
//   relative to it, with npm's `npm_*` variables of a surrounding `npm test` removed and NO_COLOR set),
//   `.copyTo(): InstalledProject` (symlinks such as node_modules/.bin copied as they are, so the copy
//   points into itself), `.remove()`.
// - `runIn(cwd, command, args, options?)`: the same as `run`, in any folder.
// - `removeTarball()`: removes the tarball's temp folder (call it in afterAll: a worker that is
//   killed rather than exiting never runs the exit handler that does it otherwise).
// Installing takes seconds when idle and minutes on a loaded machine: give tests that call these a
// timeout of minutes (INSTALL_TIMEOUT).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** A test that packs or installs gets this timeout: minutes, for a loaded machine. */
export const INSTALL_TIMEOUT = 10 * 60_000;

export interface Tarball {
  /** The .tgz file, in a temp folder of its own. */
  path: string;
  /** The paths inside the package (`package/` left out), as npm lists them. */
  files: string[];
  /** Bytes of the .tgz. */
  size: number;
  /** Bytes of its files, unpacked. */
  unpackedSize: number;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last non-empty line of stdout. */
  lastLine: string;
}

export interface RunOptions {
  /** Relative to the project folder (or absolute). */
  cwd?: string;
  env?: Record<string, string>;
  /** Written to the command's stdin, which is then closed. */
  input?: string;
}

export interface InstalledProject {
  dir: string;
  run(command: string, args: string[], options?: RunOptions): Promise<RunResult>;
  copyTo(): InstalledProject;
  remove(): void;
}

/** The environment of a command run as a user would in their project: none of `npm test`'s npm_* variables. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(name) && name !== "INIT_CWD") env[name] = value;
  }
  return { ...env, NO_COLOR: "1", FORCE_COLOR: undefined, ...extra };
}

/** Runs `command args` in `cwd` and collects its output. */
export function runIn(cwd: string, command: string, args: string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: resolve(cwd, options.cwd ?? "."), env: userEnv(options.env), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => {
      const lines = stdout.split("\n").filter((line) => line.trim() !== "");
      done({ code, stdout, stderr, lastLine: lines.at(-1) ?? "" });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** Throws with the command's output unless it exited 0. */
function mustSucceed(what: string, result: RunResult): RunResult {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`);
  return result;
}

let packed: Promise<Tarball> | undefined;
let packedInto: string | undefined;

/** Removes the packed tarball's folder (also done when the process exits normally); the next packedTarball() packs again. */
export function removeTarball(): void {
  if (packedInto) rmSync(packedInto, { recursive: true, force: true });
  packedInto = undefined;
  packed = undefined;
}

/** The repository packed as npm would publish it; once per process. */
export function packedTarball(): Promise<Tarball> {
  packed ??= (async () => {
    const destination = mkdtempSync(join(tmpdir(), "turnlens-tarball-"));
    packedInto = destination;
    process.once("exit", () => rmSync(destination, { recursive: true, force: true }));
    const result = mustSucceed("npm pack", await runIn(ROOT, "npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination]));
    const [info] = JSON.parse(result.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
    if (!info) throw new Error(`npm pack printed no package:\n${result.stdout}`);
    return { path: join(destination, info.filename), files: info.files.map((file) => file.path).sort(), size: info.size, unpackedSize: info.unpackedSize };
  })();
  return packed;
}

function projectAt(dir: string): InstalledProject {
  return {
    dir,
    run: (command, args, options) => runIn(dir, command, args, options),
    copyTo() {
      const copy = mkdtempSync(join(tmpdir(), "turnlens-project-moved-"));
      cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
      return projectAt(copy);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The repository's own TypeScript version: the project gets the same one. */
function typescriptVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules", "typescript", "package.json"), "utf8")) as { version: string }).version;
}

/** A fresh project in the OS temp dir with the tarball, TypeScript and `packages` installed. */
export async function installedProject(options: { packages?: string[] } = {}): Promise<InstalledProject> {
  const tarball = await packedTarball();
  const dir = mkdtempSync(join(tmpdir(), "turnlens-project-"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "a-user-project", version: "1.0.0", private: true }, null, 2)}\n`);
  const project = projectAt(dir);
  try {
    mustSucceed(
      "npm install",
      await project.run("npm", [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--save-dev",
        tarball.path,
        `typescript@${typescriptVersion()}`,
        ...(options.packages ?? []),
      ]),
    );
  } catch (error) {
    project.remove();
    throw error;
  }
  return project;
}
