// `turnlens init`: in a folder that installs turnlens (here a symlink to this clone, as a path
// dependency makes), the tsconfig and example it writes pass both `turnlens test` and `tsc`, with
// paths relative to the tsconfig; a second init changes nothing; a user's tsconfig keeps what it had.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { cliTests, inProject } from "./cliTable.ts";
import { ROOT, runNode, SLOW, tempProject, turnlens, turnlensCommand, type CliResult } from "./harness.ts";

/** Tests that run tsc (seconds when idle) get minutes: it only guards against a hang on a loaded machine. */
const TSC_SLOW = 180_000;

/** `tsc --noEmit -p <dir>` with the repo's TypeScript. */
function tsc(dir: string): Promise<CliResult> {
  return runNode([join(ROOT, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", dir], dir);
}

/** tsc over the project at `dir` prints nothing and exits 0. */
async function expectTscClean(dir: string): Promise<void> {
  const check = await tsc(dir);
  expect(check.stdout).toBe("");
  expect(check.code).toBe(0);
}

/** Every file under `dir` with its text. */
function snapshot(dir: string, skip: string[] = []): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub))) {
      const rel = sub ? join(sub, name) : name;
      if (skip.includes(rel)) continue;
      if (statSync(join(dir, rel)).isDirectory()) walk(rel);
      else files[rel] = readFileSync(join(dir, rel), "utf8");
    }
  };
  walk("");
  return files;
}

function compilerOptionsOf(file: string): Record<string, unknown> {
  const parsed = ts.parseConfigFileTextToJson(file, readFileSync(file, "utf8"));
  if (parsed.error) throw new Error(ts.flattenDiagnosticMessageText(parsed.error.messageText, "\n"));
  return (parsed.config as { compilerOptions: Record<string, unknown> }).compilerOptions;
}

/** `npm install <this clone>` in `dir`: node_modules/turnlens is a symlink to the repo, and TypeScript too. */
function installTurnlens(dir: string, into = dir): void {
  mkdirSync(join(into, "node_modules"), { recursive: true });
  symlinkSync(ROOT, join(into, "node_modules", "turnlens"), "dir");
  symlinkSync(join(ROOT, "node_modules", "typescript"), join(into, "node_modules", "typescript"), "dir");
}

/** The project's own files (not the installed packages) with their text. */
function snapshotOfProject(dir: string): Record<string, string> {
  return snapshot(dir, ["node_modules"]);
}

const SERVED = [
  "agentswf/workflow",
  "agentswf/testing",
  "agentswf/client",
  "turnlens/workflow",
  "turnlens/testing",
  "turnlens/client",
  "turnlens/trace",
  "turnlens/config",
  "bun:test",
  "vitest",
  "typebox",
  "typebox/*",
];

describe("a folder that installs turnlens and nothing else yet", () => {
  test(
    "init writes a tsconfig and a first workflow whose tests pass, and tsc agrees",
    () =>
      inProject({ files: {} }, async (dir) => {
        installTurnlens(dir);
        const init = await turnlensCommand(["init", dir]);
        expect(init.code).toBe(0);
        expect(init.stdout).toContain("created tsconfig.json");
        expect(init.stdout).toContain("created workflows/hello/workflow.ts");
        expect(init.stdout).toContain("created workflows/hello/workflow.test.ts");
        expect(init.stdout).not.toContain("note:");
        const paths = compilerOptionsOf(join(dir, "tsconfig.json")).paths as Record<string, string[]>;
        expect(Object.keys(paths).sort()).toEqual([...SERVED].sort());
        // Through the symlink, relative to the tsconfig: never the clone it points to.
        expect(paths["agentswf/testing"]).toEqual(["./node_modules/turnlens/dist/types/agentswf/testing.d.ts"]);
        expect(paths["typebox/*"]).toEqual(["./node_modules/turnlens/dist/types/node_modules/typebox/build/*/index.d.mts"]);
        expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).not.toContain(ROOT);

        const run = await turnlens([], dir);
        expect(run.lastLine).toBe("2 passed, 0 failed");
        expect(run.code).toBe(0);

        await expectTscClean(dir);
      }),
    TSC_SLOW,
  );

  test(
    "a package of a workspace gets paths up to the workspace's node_modules",
    () =>
      inProject({ files: { "package.json": '{ "workspaces": ["packages/*"] }\n' } }, async (dir) => {
        installTurnlens(dir);
        const pkg = join(dir, "packages", "agents");
        const init = await turnlensCommand(["init", pkg]);
        expect(init.code).toBe(0);
        const paths = compilerOptionsOf(join(pkg, "tsconfig.json")).paths as Record<string, string[]>;
        expect(paths["agentswf/testing"]).toEqual(["../../node_modules/turnlens/dist/types/agentswf/testing.d.ts"]);
        await expectTscClean(pkg);
      }),
    TSC_SLOW,
  );

  test(
    "without turnlens and TypeScript installed, init points where npm puts them and says how to add them",
    () =>
      inProject({ files: {} }, async (dir) => {
        const init = await turnlensCommand(["init", dir]);
        expect(init.code).toBe(0);
        const paths = compilerOptionsOf(join(dir, "tsconfig.json")).paths as Record<string, string[]>;
        expect(paths["agentswf/testing"]).toEqual(["./node_modules/turnlens/dist/types/agentswf/testing.d.ts"]);
        expect(init.stdout.split("\n").filter((line) => line.startsWith("note:"))).toEqual([
          "note: turnlens is not installed in this folder: the paths point where npm puts it (./node_modules/turnlens), so tsc finds them once it is installed",
          "note: TypeScript is not installed in this folder, so `npx tsc` would offer an unrelated package named tsc",
          "note: add turnlens and typescript: npm install --save-dev turnlens typescript",
        ]);
        // The example still runs: `turnlens test` serves the modules itself.
        expect((await turnlens([], dir)).lastLine).toBe("2 passed, 0 failed");
        // Installing is all tsc needed: the tsconfig stays as it was.
        installTurnlens(dir);
        expect((await tsc(dir)).stdout).toBe("");
      }),
    TSC_SLOW,
  );

  test(
    "tsc with those paths rejects an answer that does not match its schema",
    () =>
      inProject({ files: {} }, async (dir) => {
        installTurnlens(dir);
        expect((await turnlensCommand(["init", dir])).code).toBe(0);
        const testFile = join(dir, "workflows", "hello", "workflow.test.ts");
        const text = readFileSync(testFile, "utf8");
        writeFileSync(testFile, text.replace('answer(GREETING, { greeting: "Hello, Ada!" })', "answer(GREETING, { greeting: 3 })"));
        expect(readFileSync(testFile, "utf8")).not.toBe(text);
        const check = await tsc(dir);
        expect(check.code).not.toBe(0);
        expect(check.stdout).toContain("workflow.test.ts(10,");
        expect(check.stdout).toContain("error TS2322: Type 'number' is not assignable to type 'string'");
      }),
    TSC_SLOW,
  );

  test(
    "init twice changes nothing and says so",
    () =>
      inProject({ files: {} }, async (dir) => {
        installTurnlens(dir);
        expect((await turnlensCommand(["init"], dir)).code).toBe(0);
        const before = snapshotOfProject(dir);
        const again = await turnlensCommand(["init"], dir);
        expect(again.code).toBe(0);
        expect(again.stdout).toContain("skipped tsconfig.json: already maps the served modules");
        expect(again.lastLine).toBe("nothing changed: the folder is already set up");
        expect(snapshotOfProject(dir)).toEqual(before);
      }),
    SLOW,
  );

  test(
    "--json prints what was done",
    () =>
      inProject({ files: {} }, async (dir) => {
        const init = await turnlensCommand(["init", dir, "--json"]);
        expect(init.code).toBe(0);
        const result = JSON.parse(init.stdout) as { created: string[]; errors: string[] };
        expect(result.created).toEqual(["tsconfig.json", join("workflows", "hello", "workflow.ts"), join("workflows", "hello", "workflow.test.ts")]);
        expect(result.errors).toEqual([]);
      }),
    SLOW,
  );
});

describe("a folder that has things already", () => {
  const USER_TSCONFIG = `{
  // the user's own comment
  "compilerOptions": {
    "target": "ES2020",
    "strict": true,
    "noUnusedLocals": true,
    "skipLibCheck": true,
    "paths": {
      "@/*": ["./src/*"],
      "vitest": ["./types/my-vitest.d.ts"],
    },
  },
  "exclude": ["scratch"],
}
`;

  test(
    "an existing tsconfig keeps its options, comments and aliases; missing paths are added",
    () =>
      inProject(
        {
          files: {
            "tsconfig.json": USER_TSCONFIG,
            "types/my-vitest.d.ts": "export declare function test(name: string, fn: () => unknown): void;\n",
            "src/util.ts": "export const three = 3;\n",
            "scratch/broken.ts": "const x: number = 'not checked';\n",
          },
        },
        async (dir) => {
          installTurnlens(dir);
          const init = await turnlensCommand(["init", dir]);
          expect(init.code).toBe(0);
          expect(init.stdout).toContain("updated tsconfig.json");
          expect(init.stdout).toContain('note: tsconfig.json maps "vitest" elsewhere; kept yours');
          const text = readFileSync(join(dir, "tsconfig.json"), "utf8");
          expect(text).toContain("// the user's own comment");
          expect(text).toContain('"exclude": ["scratch"]');
          const options = compilerOptionsOf(join(dir, "tsconfig.json"));
          expect(options.target).toBe("ES2020");
          expect(options.noUnusedLocals).toBe(true);
          const paths = options.paths as Record<string, string[]>;
          expect(paths["@/*"]).toEqual(["./src/*"]);
          expect(paths.vitest).toEqual(["./types/my-vitest.d.ts"]);
          expect(Object.keys(paths).sort()).toEqual(["@/*", ...SERVED].sort());

          expect((await tsc(dir)).stdout).toBe("");
          const again = await turnlensCommand(["init", dir]);
          expect(again.lastLine).toBe("nothing changed: the folder is already set up");
        },
      ),
    TSC_SLOW,
  );

  test(
    "paths an older init wrote (gone, or absolute into a clone) are pointed at the installed package",
    async () => {
      const stale = "/nowhere/turnlens-0.0.1/dist/types";
      const clone = join(ROOT, "dist", "types");
      const project = tempProject({
        "tsconfig.json": JSON.stringify(
          {
            compilerOptions: {
              strict: true,
              skipLibCheck: true,
              paths: {
                "agentswf/testing": [`${stale}/agentswf/testing.d.ts`],
                "typebox/*": [`${stale}/node_modules/typebox/build/*/index.d.mts`],
                "bun:test": [`${clone}/bun-test.d.ts`],
              },
            },
          },
          null,
          2,
        ),
        "src/mine.ts": "export const notAWorkflow = 1;\n",
      });
      try {
        installTurnlens(project.dir);
        const init = await turnlensCommand(["init", project.dir]);
        expect(init.code).toBe(0);
        expect(init.stdout).toContain("updated tsconfig.json");
        const paths = compilerOptionsOf(join(project.dir, "tsconfig.json")).paths as Record<string, string[]>;
        expect(paths["agentswf/testing"]).toEqual(["./node_modules/turnlens/dist/types/agentswf/testing.d.ts"]);
        expect(paths["typebox/*"]).toEqual(["./node_modules/turnlens/dist/types/node_modules/typebox/build/*/index.d.mts"]);
        expect(paths["bun:test"]).toEqual(["./node_modules/turnlens/dist/types/bun-test.d.ts"]);
        expect(Object.keys(paths).sort()).toEqual([...SERVED].sort());
        expect((await tsc(project.dir)).stdout).toBe("");
      } finally {
        project.remove();
      }
    },
    TSC_SLOW,
  );

  test(
    "a folder with a workflow gets no example unless --example, and no file is overwritten",
    async () => {
      const mine = 'import { defineWorkflow } from "agentswf/workflow";\nexport default defineWorkflow({ name: "mine", run: async () => 1 });\n';
      const myTest = "// the user's own test\n";
      const project = tempProject({ "src/mine.ts": mine, "workflows/hello/workflow.test.ts": myTest });
      try {
        const init = await turnlensCommand(["init", project.dir]);
        expect(init.code).toBe(0);
        expect(init.stdout).toContain("no example was written (--example writes one)");
        expect(existsSync(join(project.dir, "workflows", "hello", "workflow.ts"))).toBe(false);

        const example = await turnlensCommand(["init", project.dir, "--example"]);
        expect(example.code).toBe(0);
        expect(example.stdout).toContain("created workflows/hello/workflow.ts");
        expect(example.stdout).toContain("skipped workflows/hello/workflow.test.ts: already exists");
        expect(readFileSync(join(project.dir, "workflows", "hello", "workflow.test.ts"), "utf8")).toBe(myTest);
        expect(readFileSync(join(project.dir, "src", "mine.ts"), "utf8")).toBe(mine);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a tsconfig that is not JSON is left alone and init exits 1",
    () =>
      inProject({ files: { "tsconfig.json": "{ not json" } }, async (dir) => {
        const init = await turnlensCommand(["init", dir]);
        expect(init.code).toBe(1);
        expect(init.stdout).toContain("error: tsconfig.json could not be read");
        expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toBe("{ not json");
      }),
    SLOW,
  );
});

describe("a tsconfig whose include leaves workflows/ out", () => {
  const BROKEN_ANSWER = ['answer(GREETING, { greeting: "Hello, Ada!" })', "answer(GREETING, { greeting: 3 })"] as const;

  test(
    'with "include": ["src"], the example goes to src/workflows/hello and init says so; its tests pass and tsc checks them',
    () =>
      inProject(
        {
          files: {
            "tsconfig.json": '{\n  "compilerOptions": { "strict": true, "skipLibCheck": true, "noEmit": true },\n  "include": ["src"]\n}\n',
            "src/index.ts": "export const three = 3;\n",
          },
        },
        async (dir) => {
          installTurnlens(dir);
          const init = await turnlensCommand(["init", dir]);
          expect(init.code).toBe(0);
          expect(init.stdout).toContain("created src/workflows/hello/workflow.test.ts\n");
          expect(init.stdout).toContain(
            'note: tsconfig.json\'s "include" (src) leaves out workflows/, so the example went to src/workflows/hello, where tsc checks it\n',
          );
          expect(existsSync(join(dir, "workflows"))).toBe(false);
          expect((await turnlens([], dir)).lastLine).toBe("2 passed, 0 failed");
          await expectTscClean(dir);
          // tsc checks the example's test: a wrong answer in it is an error.
          const testFile = join(dir, "src", "workflows", "hello", "workflow.test.ts");
          writeFileSync(testFile, readFileSync(testFile, "utf8").replace(...BROKEN_ANSWER));
          const check = await tsc(dir);
          expect(check.stdout).toContain("src/workflows/hello/workflow.test.ts(10,");
          expect(check.code).not.toBe(0);
        },
      ),
    TSC_SLOW,
  );

  test(
    'with "include": ["index.ts"] (no folder to write into), "workflows" is added to the include and init says so; tsc checks the example',
    () =>
      inProject(
        {
          files: {
            "tsconfig.json": '{\n  "compilerOptions": { "strict": true, "skipLibCheck": true, "noEmit": true },\n  "include": ["index.ts"]\n}\n',
            "index.ts": "export const three = 3;\n",
          },
        },
        async (dir) => {
          installTurnlens(dir);
          const init = await turnlensCommand(["init", dir]);
          expect(init.code).toBe(0);
          expect(init.stdout).toContain("created workflows/hello/workflow.test.ts\n");
          expect(init.stdout).toContain(
            'note: tsconfig.json\'s "include" (index.ts) left out workflows/: added "workflows" to its "include", so tsc checks the example\n',
          );
          const config = ts.parseConfigFileTextToJson("tsconfig.json", readFileSync(join(dir, "tsconfig.json"), "utf8")).config as { include: string[] };
          expect(config.include).toEqual(["index.ts", "workflows"]);
          const testFile = join(dir, "workflows", "hello", "workflow.test.ts");
          writeFileSync(testFile, readFileSync(testFile, "utf8").replace(...BROKEN_ANSWER));
          expect((await tsc(dir)).stdout).toContain("workflows/hello/workflow.test.ts(10,");
        },
      ),
    TSC_SLOW,
  );
});

describe("a folder that installs Vitest", () => {
  /** A test Vitest's own types accept and Turnlens's `vitest` has no name for. */
  const VITEST_TYPES_TEST = 'import { createExpect } from "vitest";\ncreateExpect().assertions(0);\n';
  const installVitest = (dir: string) => symlinkSync(join(ROOT, "node_modules", "vitest"), join(dir, "node_modules", "vitest"), "dir");

  test(
    'init leaves "vitest" unmapped, so tsc reads Vitest\'s own types, and says so',
    () =>
      inProject({ files: { "types.test.ts": VITEST_TYPES_TEST } }, async (dir) => {
        installTurnlens(dir);
        installVitest(dir);
        const init = await turnlensCommand(["init", dir]);
        expect(init.code).toBe(0);
        expect(init.stdout).toContain(
          "note: the folder installs Vitest: \"vitest\" is left to Vitest's own types, not mapped to Turnlens's, so tsc checks a test as Vitest does\n",
        );
        const paths = compilerOptionsOf(join(dir, "tsconfig.json")).paths as Record<string, string[]>;
        expect(Object.keys(paths).sort()).toEqual(SERVED.filter((name) => name !== "vitest").sort());
        await expectTscClean(dir);
      }),
    TSC_SLOW,
  );

  test(
    'a tsconfig an earlier init wrote before Vitest was installed loses its "vitest" entry on the next init',
    () =>
      inProject({ files: { "types.test.ts": VITEST_TYPES_TEST } }, async (dir) => {
        installTurnlens(dir);
        expect((await turnlensCommand(["init", dir])).code).toBe(0);
        // Turnlens's vitest has no createExpect: stricter than Vitest itself.
        expect((await tsc(dir)).stdout).toContain("types.test.ts(1,10): error TS2305");
        installVitest(dir);
        const again = await turnlensCommand(["init", dir]);
        expect(again.stdout).toContain("updated tsconfig.json\n");
        expect(again.stdout).toContain('note: the folder installs Vitest: "vitest" is left to Vitest\'s own types');
        const paths = compilerOptionsOf(join(dir, "tsconfig.json")).paths as Record<string, string[]>;
        expect(paths.vitest).toBeUndefined();
        expect(Object.keys(paths).length).toBe(SERVED.length - 1);
        await expectTscClean(dir);
      }),
    TSC_SLOW,
  );
});

describe("usage errors exit 2", () => {
  cliTests([
    {
      name: "an unknown option",
      command: "init",
      args: ["--frobnicate"],
      code: 2,
      stderr: { has: ["unknown option: --frobnicate", "Usage: turnlens init"] },
    },
    { name: "two folders", command: "init", args: ["a", "b"], code: 2, stderr: { has: ["init takes one folder, got 2: a b"] } },
    { name: "a file instead of a folder", command: "init", args: ["package.json"], code: 2, stderr: { has: ["not a folder: package.json"] } },
  ]);
});
