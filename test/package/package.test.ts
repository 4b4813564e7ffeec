// Turnlens as a user gets it: the `npm pack` tarball installed with TypeScript into a fresh folder
// in the OS temp dir (installedProject.ts), then the README's path there: `npx turnlens init
// --example`, `npx turnlens test`, `npx tsc --noEmit`, and the same project moved to another path.
import { expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INSTALL_TIMEOUT, installedProject, packedTarball, ROOT, type InstalledProject } from "./installedProject.ts";

// One installed project for the whole file, in order: init, test, tsc, then the move.
let installing: Promise<InstalledProject> | undefined;
const project = (): Promise<InstalledProject> => (installing ??= installedProject());

const TEST_FILE = join("workflows", "hello", "workflow.test.ts");
const RIGHT_ANSWER = 'answer(GREETING, { greeting: "Hello, Ada!" })';

/** What a user's tarball may hold: the command, dist's modules, the server, the declarations, the docs. */
const SHIPPED = [
  /^(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/,
  /^bin\/turnlens\.mjs$/,
  /^dist\/(cli|worker|workflow|testing|client|trace)\.mjs$/,
  /^dist\/chunks\/[\w-]+\.mjs$/,
  /^dist\/server\.js$/,
  /^dist\/types\/.+\.d\.m?ts$/,
  /^dist\/types\/node_modules\/.+\/(package\.json|licen[sc]e(\.md|\.txt)?|LICEN[SC]E(\.md|\.txt)?)$/,
];

test("npm pack ships the command, the CLI and its worker, the public modules, the language server and the declarations, and nothing else", async () => {
  const tarball = await packedTarball();
  console.log(`tarball ${tarball.path.split("/").at(-1)}: ${tarball.size} bytes packed, ${tarball.unpackedSize} unpacked, ${tarball.files.length} files`);
  expect(tarball.files.filter((file) => !SHIPPED.some((pattern) => pattern.test(file)))).toEqual([]);
  for (const needed of ["bin/turnlens.mjs", "dist/cli.mjs", "dist/worker.mjs", "dist/server.js", "dist/testing.mjs", "dist/types/agentswf/testing.d.ts", "dist/types/turnlens/testing.d.ts", "dist/types/node_modules/typebox/build/index.d.mts", "README.md", "LICENSE"]) {
    expect(tarball.files).toContain(needed);
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
  expect(manifest.private).toBeUndefined();
  // dist/ bundles everything it uses but esbuild, whose native binary cannot be bundled.
  expect(Object.keys(manifest.dependencies as object)).toEqual(["esbuild"]);
  expect(manifest.scripts).toMatchObject({ prepack: "node build.mjs" });
}, INSTALL_TIMEOUT);

test("in a fresh folder with the tarball and typescript installed, init --example, turnlens test and tsc pass, and init writes no absolute path", async () => {
  const { dir, run } = await project();
  // An install, not a link to this repository.
  expect(lstatSync(join(dir, "node_modules", "turnlens")).isSymbolicLink()).toBe(false);
  expect(existsSync(join(dir, "node_modules", "turnlens", "core"))).toBe(false);

  const init = await run("npx", ["turnlens", "init", "--example"]);
  expect(init.stdout).toBe("created tsconfig.json\ncreated workflows/hello/workflow.ts\ncreated workflows/hello/workflow.test.ts\nnext: turnlens test\n");
  expect(init.code).toBe(0);
  const written = init.stdout.split("\n").filter((line) => line.startsWith("created ")).map((line) => line.slice("created ".length));
  for (const file of written) {
    const text = readFileSync(join(dir, file), "utf8");
    for (const absolute of [dir, realpathSync(dir), ROOT, tmpdir()]) expect({ file, holds: text.includes(absolute) ? absolute : "no absolute path" }).toEqual({ file, holds: "no absolute path" });
  }
  const paths = (JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
  expect(Object.values(paths).flat().filter((path) => !path.startsWith("./node_modules/turnlens/dist/types/"))).toEqual([]);

  const tests = await run("npx", ["turnlens", "test"]);
  expect(tests.lastLine).toBe("2 passed, 0 failed");
  expect(tests.code).toBe(0);

  const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
  expect(tsc.stdout).toBe("");
  expect(tsc.code).toBe(0);
}, INSTALL_TIMEOUT);

test("tsc fails at the property once a scripted answer has the wrong type", async () => {
  const { dir, run } = await project();
  const file = join(dir, TEST_FILE);
  const text = readFileSync(file, "utf8");
  expect(text).toContain(RIGHT_ANSWER);
  writeFileSync(file, text.replace(RIGHT_ANSWER, "answer(GREETING, { greeting: 3 })"));
  try {
    const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
    expect(tsc.code).toBe(2);
    const [, where, line, column] = /^(workflows\/hello\/workflow\.test\.ts)\((\d+),(\d+)\): error TS2322: Type 'number' is not assignable to type 'string'\.$/.exec(tsc.stdout.trim()) ?? ["", tsc.stdout];
    expect(where).toBe("workflows/hello/workflow.test.ts");
    // The error is at the property, `greeting`.
    expect(readFileSync(file, "utf8").split("\n")[Number(line) - 1]!.slice(Number(column) - 1)).toStartWith("greeting: 3 })");
  } finally {
    writeFileSync(file, text);
  }
}, INSTALL_TIMEOUT);

test("the installed package's own names resolve: turnlens/testing's types from the package's exports, its module in Node", async () => {
  const { dir, run } = await project();
  // No paths: tsc finds turnlens/testing through node_modules/turnlens/package.json's exports alone.
  writeFileSync(join(dir, "tsconfig.exports.json"), `${JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", strict: true, skipLibCheck: true, noEmit: true, types: [] }, files: ["uses-exports.mts"] }, null, 2)}\n`);
  writeFileSync(join(dir, "uses-exports.mts"), 'import { answer, noAnswer } from "turnlens/testing";\nimport type { RunTrace } from "turnlens/trace";\nexport const entries = [answer({ type: "object" }, { any: 1 }), noAnswer.silent()];\nexport type Trace = RunTrace;\n');
  const tsc = await run("npx", ["tsc", "-p", "tsconfig.exports.json", "--pretty", "false"]);
  expect(tsc.stdout).toBe("");
  expect(tsc.code).toBe(0);
  const node = await run("node", ["--input-type=module", "-e", 'const w = await import("turnlens/workflow"); const t = await import("turnlens/testing"); console.log(typeof w.defineWorkflow, typeof t.testWorkflow)']);
  expect(node.stdout).toBe("function function\n");
}, INSTALL_TIMEOUT);

test("the project copied to a second path, the first one gone, still passes turnlens test and tsc", async () => {
  const first = await project();
  const moved = first.copyTo();
  try {
    first.remove();
    expect(existsSync(first.dir)).toBe(false);
    const tests = await moved.run("npx", ["turnlens", "test"]);
    expect(tests.lastLine).toBe("2 passed, 0 failed");
    expect(tests.code).toBe(0);
    const tsc = await moved.run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
    expect(tsc.stdout).toBe("");
    expect(tsc.code).toBe(0);
  } finally {
    moved.remove();
  }
}, INSTALL_TIMEOUT);
