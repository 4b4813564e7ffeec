// `turnlens init [folder] [--example] [--json]`: a tsconfig whose paths give `tsc` the installed
// package's declarations of the served modules (always relative: ./node_modules/turnlens/…), and, in a
// folder with no workflow yet, a first workflow and its test. Never overwrites a file. docs/types-in-the-editor.md
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import served from "../execution/servedTypes.json" with { type: "json" };
import {
  applyEdits,
  indentUnit,
  insertProperties,
  type JsonNode,
  JsoncError,
  parseJsonc,
  property,
  removeProperty,
  replaceValue,
  stringify,
  toValue,
  type TextEdit,
} from "./jsonc.ts";

export interface InitOptions {
  /** The folder to set up; created when missing. */
  folder: string;
  /** Scaffold the example workflow even when the folder already has a workflow. */
  example?: boolean;
}

export interface InitResult {
  folder: string;
  /** Files created, relative to the folder. */
  created: string[];
  /** Files changed, relative to the folder. */
  updated: string[];
  /** Files left as they were, and why. */
  skipped: { file: string; reason: string }[];
  /** Things the user may want to know. */
  notes: string[];
  /** Something init could not do (an unreadable tsconfig); the CLI exits 1. */
  errors: string[];
}

export class InitUsageError extends Error {}

export const INIT_USAGE = `Usage: turnlens init [folder] [--example] [--json]

Sets up a folder (the current one by default) for Turnlens:
  - tsconfig.json: "paths" that map agentswf/workflow, agentswf/testing, agentswf/client,
    turnlens/*, typebox, bun:test and vitest to the declarations of the turnlens package the
    folder installs (./node_modules/turnlens/dist/types/..., relative, so the project can move).
    A folder that installs Vitest keeps Vitest's own types for vitest: it is not mapped.
    An existing tsconfig keeps everything it has; only missing paths are added.
  - workflows/hello/workflow.ts and workflow.test.ts, when the folder has no workflow yet (or
    with --example): a one-agent workflow and two tests that pass on the first turnlens test.
    Where the tsconfig's "include" leaves workflows/ out, they go under the folder it includes
    (src/workflows/hello for "include": ["src"]), or "workflows" is added to it: tsc checks them.
An existing file is never overwritten: it is reported and skipped.

Options:
      --example   write the example workflow even if the folder has workflows
      --json      print the result as JSON
  -h, --help      print this help

Exit code: 0 when done, 1 when a file could not be read, 2 on a usage error.`;

const TSCONFIG = "tsconfig.json";
const EXAMPLE_DIR = join("workflows", "hello");

/**
 * The `node_modules/turnlens` that imports in `folder` find (its own, or a parent's in a workspace),
 * as a path through node_modules: a symlinked install (`npm install ../turnlens`) stays
 * `node_modules/turnlens`, never the clone it points to. Undefined when none is installed.
 */
export function installedPackage(folder: string, name: string, marker = "package.json"): string | undefined {
  for (let dir = resolve(folder); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, marker))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Where init points a tsconfig in `folder`: the installed package's dist/types, or where `npm install` puts it. */
export function typesDirFor(folder: string): { typesDir: string; installed: boolean } {
  const marker = join("dist", "types", served.modules["agentswf/testing"].file);
  const installed = installedPackage(folder, "turnlens", marker);
  return { typesDir: join(installed ?? join(resolve(folder), "node_modules", "turnlens"), "dist", "types"), installed: installed !== undefined };
}

/**
 * The tsconfig `paths` Turnlens needs, for a tsconfig in `configDir` (with its `baseUrl`, if any).
 * Always relative (to `baseUrl` when set): a project that moves, a teammate's clone and CI read the same file.
 */
export function servedPaths(typesDir: string, configDir: string, baseUrl?: string, leave: readonly string[] = []): Record<string, string[]> {
  const base = baseUrl === undefined ? configDir : resolve(configDir, baseUrl);
  const ref = (file: string): string => {
    // typesDir is under configDir or one of its parents, so this is never absolute.
    const rel = relative(base, join(typesDir, file)).split(sep).join("/");
    return rel.startsWith(".") ? rel : `./${rel}`;
  };
  const paths: Record<string, string[]> = {};
  for (const [name, { file }] of Object.entries(served.modules)) paths[name] = [ref(file)];
  for (const [name, file] of Object.entries(served.packages)) paths[name] = [ref(file)];
  for (const name of leave) delete paths[name];
  return paths;
}

function sameList(a: unknown, b: string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * A paths entry an older Turnlens wrote: only into a Turnlens dist/types that is gone (an older
 * extension), or absolute (the clone or extension folder an older init pointed at).
 */
function isStaleTurnlensEntry(value: unknown, base: string): boolean {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((p) => typeof p === "string" && /(^|\/)dist\/types\//.test(p) && (isAbsolute(p) || !existsSync(resolve(base, p.replace(/\*/g, "value")))))
  );
}

function newTsconfig(paths: Record<string, string[]>): string {
  const config = {
    compilerOptions: {
      target: "ES2022",
      module: "preserve",
      moduleResolution: "bundler",
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      paths,
    },
  };
  return `${stringify(config, "  ")}\n`;
}

/** Adds the missing served paths to an existing tsconfig's text; undefined when nothing is missing. */
function mergeTsconfig(text: string, configDir: string, typesDir: string, result: InitResult, leave: readonly string[]): string | undefined {
  const root = parseJsonc(text);
  if (root.kind !== "object") throw new JsoncError("the file is not a JSON object", root.start);
  const unit = indentUnit(text);
  const options = property(root, "compilerOptions");
  const optionsValue = options ? (toValue(options.value) as Record<string, unknown>) : {};
  const baseUrl = typeof optionsValue.baseUrl === "string" ? optionsValue.baseUrl : undefined;
  const wanted = servedPaths(typesDir, configDir, baseUrl, leave);
  const ours = servedPaths(typesDir, configDir, baseUrl);
  const base = baseUrl === undefined ? configDir : resolve(configDir, baseUrl);

  const extended = property(root, "extends") !== undefined;
  if (extended && !property(options?.value, "paths")) {
    result.notes.push(`${TSCONFIG} extends another config: the "paths" added here replace any "paths" it inherits`);
  }
  // With `extends`, the base may set these; only a config that stands alone is told.
  if (!extended && optionsValue.strict !== true) {
    result.notes.push(`${TSCONFIG} does not set "strict": true; answer(SCHEMA, value) is checked more loosely without it`);
  }
  if (!extended && optionsValue.skipLibCheck !== true) {
    result.notes.push(`${TSCONFIG} does not set "skipLibCheck": true; tsc will also check typebox's declarations, which takes a while`);
  }
  if (options?.value.kind !== "object") {
    if (options) throw new JsoncError('"compilerOptions" is not an object', options.value.start);
    return applyEdits(text, [insertProperties(text, root, [["compilerOptions", { paths: wanted }]], unit)]);
  }
  const pathsProp = property(options.value, "paths");
  if (!pathsProp) return applyEdits(text, [insertProperties(text, options.value, [["paths", wanted]], unit)]);
  if (pathsProp.value.kind !== "object") throw new JsoncError('"compilerOptions.paths" is not an object', pathsProp.value.start);

  const edits: TextEdit[] = [];
  const missing: [string, string[]][] = [];
  for (const [name, targets] of Object.entries(wanted)) {
    const existing = property(pathsProp.value, name);
    if (!existing) missing.push([name, targets]);
    else if (sameList(toValue(existing.value), targets)) continue;
    else if (isStaleTurnlensEntry(toValue(existing.value), base)) edits.push(replaceValue(text, existing, targets, unit));
    else result.notes.push(`${TSCONFIG} maps "${name}" elsewhere; kept yours`);
  }
  // A name left to the project's own package (vitest) that an earlier init mapped to ours: unmapped.
  const pathsObject = pathsProp.value;
  for (const name of leave) {
    const existing = property(pathsObject, name);
    const target = ours[name];
    if (existing && target && sameList(toValue(existing.value), target)) edits.push(removeProperty(text, pathsObject, existing));
  }
  if (missing.length > 0) edits.push(insertProperties(text, pathsProp.value, missing, unit));
  return edits.length > 0 ? applyEdits(text, edits) : undefined;
}

const SOURCE = /\.(m|c)?[jt]sx?$/;
const SKIP_DIR = /^(node_modules|dist|build|out|coverage)$|^\./;

/** Whether the folder already has a workflow: a source file that calls defineWorkflow. */
export function hasWorkflow(folder: string): boolean {
  let budget = 5000;
  const walk = (dir: string, depth: number): boolean => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      if (--budget < 0) return false;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < 8 && !SKIP_DIR.test(entry.name) && walk(path, depth + 1)) return true;
      } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        try {
          if (statSync(path).size < 1_000_000 && /\bdefineWorkflow\s*\(/.test(readFileSync(path, "utf8"))) return true;
        } catch {
          // unreadable: not a workflow
        }
      }
    }
    return false;
  };
  return walk(folder, 0);
}

export const EXAMPLE_WORKFLOW = `// A first workflow: one greeter agent answers with a greeting; a greeter that never answers is
// nudged once, and the greeting says why there is none. Its tests are in workflow.test.ts.
import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const GREETING = Type.Object({ greeting: Type.String() });

export default defineWorkflow({
  name: "hello",
  description: "Ask one agent for a one-sentence greeting.",
  prepare: ({ argv }) => ({ name: argv[0] ?? "world" }),
  async run(wf, { name }) {
    const greeter = await wf.agents.open({ key: "greeter", runtime: "claude" });
    const { outcome } = await greeter.run({
      prompt: \`Greet \${name} in one sentence.\`,
      schema: GREETING,
    });
    return outcome.kind === "answered" ? outcome.value : { greeting: \`no answer: \${outcome.reason}\` };
  },
});
`;

export const EXAMPLE_TEST = `// The hello workflow's tests: every agent is a script of answers, so they run in milliseconds.
// Run them with \`turnlens test\`.
import { expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import hello, { GREETING } from "./workflow";

test("returns the greeter's greeting", async () => {
  const run = await testWorkflow(hello, {
    args: { name: "Ada" },
    agents: { greeter: answer(GREETING, { greeting: "Hello, Ada!" }) },
  });
  expect(run.value).toEqual({ greeting: "Hello, Ada!" });
  expect(run.turnsOf("greeter").map((turn) => turn.prompt)).toEqual(["Greet Ada in one sentence."]);
});

test("a greeter that never answers is nudged once, then the greeting says why", async () => {
  const run = await testWorkflow(hello, {
    args: { name: "Ada" },
    agents: { greeter: noAnswer.silent() },
  });
  expect(run.value.greeting).toStartWith("no answer:");
  expect(run.turnsOf("greeter").map((turn) => turn.nudge)).toEqual([false, true]);
});
`;

/**
 * Whether tsconfig's `include` entry `pattern` takes the file at `rel` (relative to the tsconfig,
 * with /): a folder takes what is under it; `*`, `?` and `**` as tsc reads them.
 */
function includes(pattern: string, rel: string): boolean {
  const source = pattern
    .replace(/^\.\//, "")
    .replace(/\/+$/, "")
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) => ({ "**/": "(?:[^/]+/)*", "**": ".*", "*": "[^/]*", "?": "[^/]" })[part] ?? part.replace(/[.+^${}()|[\]\\]/g, "\\$&"))
    .join("");
  return new RegExp(`^${source}(?:/.*)?$`).test(rel);
}

/** The folder an include pattern names before its first wildcard (`src` of `src/**\/*.ts`), if any inside the project. */
function includedFolder(pattern: string, folder: string): string | undefined {
  const segments: string[] = [];
  for (const segment of pattern.replace(/^\.\//, "").split("/")) {
    if (/[*?]/.test(segment) || segment === "") break;
    segments.push(segment);
  }
  const dir = segments.join("/");
  if (dir === "" || dir === ".." || dir.startsWith("../") || isAbsolute(dir)) return undefined;
  const stats = statSync(join(folder, dir), { throwIfNoEntry: false });
  // A folder there, or none yet under a name that is not a file's (`index.ts` is a file).
  return stats?.isDirectory() || (stats === undefined && !/\.[a-z]+$/i.test(dir)) ? dir : undefined;
}

/**
 * Where the example goes so that tsc checks it: workflows/hello, unless the tsconfig's "include"
 * (or "files" alone) leaves that out; then under the first folder it includes (`src/workflows/hello`),
 * else "workflows" is added to its "include". Says which in a note. `text`: the tsconfig as it will be written.
 */
function placeExample(text: string, folder: string, result: InitResult): { dir: string; text?: string } {
  const root = parseJsonc(text);
  const includeProp = property(root, "include");
  const filesProp = property(root, "files");
  // Neither: tsc takes every file of the folder.
  if (!includeProp && !filesProp) return { dir: EXAMPLE_DIR };
  const include = includeProp ? toValue(includeProp.value) : [];
  if (!Array.isArray(include) || !include.every((entry) => typeof entry === "string")) return { dir: EXAMPLE_DIR };
  const excludeProp = property(root, "exclude");
  const excludeValue = excludeProp ? toValue(excludeProp.value) : [];
  const exclude = Array.isArray(excludeValue) ? excludeValue.filter((entry): entry is string => typeof entry === "string") : [];
  const checked = (dir: string) => {
    const file = `${dir.split(sep).join("/")}/workflow.test.ts`;
    return include.some((pattern) => includes(pattern, file)) && !exclude.some((pattern) => includes(pattern, file));
  };
  if (checked(EXAMPLE_DIR)) return { dir: EXAMPLE_DIR };
  const shown = include.length > 0 ? `"include" (${include.join(", ")})` : '"files"';
  for (const pattern of include) {
    const dir = includedFolder(pattern, folder);
    if (dir === undefined) continue;
    const inside = join(dir, EXAMPLE_DIR);
    if (!checked(inside)) continue;
    result.notes.push(`${TSCONFIG}'s ${shown} leaves out workflows/, so the example went to ${inside.split(sep).join("/")}, where tsc checks it`);
    return { dir: inside };
  }
  // No folder of the include takes it: the include takes workflows (exclude permitting).
  const unit = indentUnit(text);
  const edit = includeProp
    ? replaceValue(text, includeProp, [...include, "workflows"], unit)
    : insertProperties(text, root as JsonNode & { kind: "object" }, [["include", ["workflows"]]], unit);
  result.notes.push(`${TSCONFIG}'s ${shown} left out workflows/: added "workflows" to its "include", so tsc checks the example`);
  const excluded = exclude.some((pattern) => includes(pattern, "workflows/hello/workflow.test.ts"));
  if (excluded) result.notes.push(`${TSCONFIG}'s "exclude" (${exclude.join(", ")}) still leaves out the example's test: tsc does not check it`);
  return { dir: EXAMPLE_DIR, text: applyEdits(text, [edit]) };
}

function writeNew(folder: string, file: string, text: string, result: InitResult): void {
  const path = join(folder, file);
  if (existsSync(path)) {
    result.skipped.push({ file, reason: "already exists" });
    return;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { flag: "wx" });
  result.created.push(file);
}

/** Sets up `options.folder`; see INIT_USAGE. Throws InitUsageError when the folder is a file. */
export function initProject(options: InitOptions): InitResult {
  const folder = resolve(options.folder);
  if (existsSync(folder) && !statSync(folder).isDirectory()) throw new InitUsageError(`not a folder: ${options.folder}`);
  const result: InitResult = { folder, created: [], updated: [], skipped: [], notes: [], errors: [] };
  const { typesDir, installed } = typesDirFor(folder);
  const scaffold = options.example === true || !hasWorkflow(folder);
  mkdirSync(folder, { recursive: true });
  // A project with Vitest of its own keeps Vitest's types for "vitest": Turnlens's would make tsc
  // stricter than the Vitest its tests also run under.
  const ownVitest = installedPackage(folder, "vitest") !== undefined;
  const leave = ownVitest ? ["vitest"] : [];
  if (ownVitest) result.notes.push("the folder installs Vitest: \"vitest\" is left to Vitest's own types, not mapped to Turnlens's, so tsc checks a test as Vitest does");

  const tsconfig = join(folder, TSCONFIG);
  let exampleDir = EXAMPLE_DIR;
  if (!existsSync(tsconfig)) {
    writeFileSync(tsconfig, newTsconfig(servedPaths(typesDir, folder, undefined, leave)), { flag: "wx" });
    result.created.push(TSCONFIG);
  } else {
    try {
      const text = readFileSync(tsconfig, "utf8");
      let merged = mergeTsconfig(text, folder, typesDir, result, leave);
      if (scaffold) {
        const placed = placeExample(merged ?? text, folder, result);
        exampleDir = placed.dir;
        merged = placed.text ?? merged;
      }
      if (merged === undefined) result.skipped.push({ file: TSCONFIG, reason: "already maps the served modules" });
      else {
        writeFileSync(tsconfig, merged);
        result.updated.push(TSCONFIG);
      }
    } catch (error) {
      if (!(error instanceof JsoncError)) throw error;
      result.errors.push(`${TSCONFIG} could not be read (${error.message}); it was left as it is`);
    }
  }

  // tsc reads the paths from the installed packages: say what is missing and how to add it.
  const missing = [...(installed ? [] : ["turnlens"]), ...(installedPackage(folder, "typescript") ? [] : ["typescript"])];
  if (!installed) {
    result.notes.push("turnlens is not installed in this folder: the paths point where npm puts it (./node_modules/turnlens), so tsc finds them once it is installed");
  }
  if (missing.includes("typescript")) {
    result.notes.push("TypeScript is not installed in this folder, so `npx tsc` would offer an unrelated package named tsc");
  }
  if (missing.length > 0) result.notes.push(`add ${missing.join(" and ")}: npm install --save-dev ${missing.join(" ")}`);

  if (scaffold) {
    writeNew(folder, join(exampleDir, "workflow.ts"), EXAMPLE_WORKFLOW, result);
    writeNew(folder, join(exampleDir, "workflow.test.ts"), EXAMPLE_TEST, result);
  } else {
    result.notes.push("the folder already has a workflow, so no example was written (--example writes one)");
  }
  return result;
}

/** Parses the arguments after `init`. Throws InitUsageError. Returns "help" for -h. */
export function parseInitArgs(args: string[]): { folder: string; example: boolean; json: boolean } | "help" {
  const folders: string[] = [];
  let example = false;
  let json = false;
  let onlyPaths = false;
  for (const arg of args) {
    if (onlyPaths || !arg.startsWith("-") || arg === "-") folders.push(arg);
    else if (arg === "--") onlyPaths = true;
    else if (arg === "-h" || arg === "--help") return "help";
    else if (arg === "--example") example = true;
    else if (arg === "--json") json = true;
    else throw new InitUsageError(`unknown option: ${arg}`);
  }
  if (folders.length > 1) throw new InitUsageError(`init takes one folder, got ${folders.length}: ${folders.join(" ")}`);
  return { folder: folders[0] ?? ".", example, json };
}

/** The human-readable report of an init. */
export function formatInit(result: InitResult): string {
  const lines: string[] = [];
  for (const file of result.created) lines.push(`created ${file}`);
  for (const file of result.updated) lines.push(`updated ${file}`);
  for (const { file, reason } of result.skipped) lines.push(`skipped ${file}: ${reason}`);
  for (const note of result.notes) lines.push(`note: ${note}`);
  for (const error of result.errors) lines.push(`error: ${error}`);
  if (result.created.length + result.updated.length === 0 && result.errors.length === 0) lines.push("nothing changed: the folder is already set up");
  else if (result.created.some((f) => f.endsWith(".test.ts"))) {
    const rel = relative(process.cwd(), result.folder);
    const where = rel === "" ? "" : rel.startsWith("..") ? result.folder : rel;
    lines.push(`next: turnlens test ${where}`.trimEnd());
  }
  return `${lines.join("\n")}\n`;
}

/** `turnlens init ...`: returns the exit code. */
export function initCommand(args: string[], out: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): number {
  let parsed;
  try {
    parsed = parseInitArgs(args);
    if (parsed === "help") {
      out.stdout.write(`${INIT_USAGE}\n`);
      return 0;
    }
    const result = initProject({ folder: parsed.folder, example: parsed.example });
    out.stdout.write(parsed.json ? `${JSON.stringify(result, null, 2)}\n` : formatInit(result));
    return result.errors.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof InitUsageError) {
      out.stderr.write(`${error.message}\n\n${INIT_USAGE}\n`);
      return 2;
    }
    throw error;
  }
}
