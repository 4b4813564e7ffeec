// `turnlens init`: in a folder with nothing installed, the tsconfig and example it writes pass both
// `turnlens test` and `tsc`; a second init changes nothing; a user's tsconfig keeps what it had.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { ROOT, runNode, SLOW, tempProject, turnlens, turnlensCommand, type CliResult } from "./harness.ts";

/** `tsc --noEmit -p <dir>` with the repo's TypeScript. */
function tsc(dir: string): Promise<CliResult> {
  return runNode([join(ROOT, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", dir], dir);
}

/** Every file under `dir` with its text. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(join(dir, sub))) {
      const rel = sub ? join(sub, name) : name;
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

const SERVED = ["agentswf/workflow", "agentswf/testing", "agentswf/client", "turnlens/workflow", "turnlens/testing", "turnlens/client", "turnlens/trace", "bun:test", "vitest", "typebox", "typebox/*"];

describe("a folder with nothing in it", () => {
  test("init writes a tsconfig and a first workflow whose tests pass, and tsc agrees", async () => {
    const project = tempProject({});
    try {
      const init = await turnlensCommand(["init", project.dir]);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain("created tsconfig.json");
      expect(init.stdout).toContain("created workflows/hello/workflow.ts");
      expect(init.stdout).toContain("created workflows/hello/workflow.test.ts");
      expect(Object.keys(compilerOptionsOf(join(project.dir, "tsconfig.json")).paths as object).sort()).toEqual([...SERVED].sort());

      const run = await turnlens([], project.dir);
      expect(run.lastLine).toBe("2 passed, 0 failed");
      expect(run.code).toBe(0);

      const check = await tsc(project.dir);
      expect(check.stdout).toBe("");
      expect(check.code).toBe(0);
      // Nothing was installed to get there.
      expect(existsSync(join(project.dir, "node_modules"))).toBe(false);
      expect(existsSync(join(project.dir, "package.json"))).toBe(false);
    } finally {
      project.remove();
    }
  }, SLOW);

  test("tsc with those paths rejects an answer that does not match its schema", async () => {
    const project = tempProject({});
    try {
      expect((await turnlensCommand(["init", project.dir])).code).toBe(0);
      const testFile = join(project.dir, "workflows", "hello", "workflow.test.ts");
      const text = readFileSync(testFile, "utf8");
      writeFileSync(testFile, text.replace('answer(GREETING, { greeting: "Hello, Ada!" })', "answer(GREETING, { greeting: 3 })"));
      expect(readFileSync(testFile, "utf8")).not.toBe(text);
      const check = await tsc(project.dir);
      expect(check.code).not.toBe(0);
      expect(check.stdout).toContain("workflow.test.ts(10,");
      expect(check.stdout).toContain("error TS2322: Type 'number' is not assignable to type 'string'");
    } finally {
      project.remove();
    }
  }, SLOW);

  test("init twice changes nothing and says so", async () => {
    const project = tempProject({});
    try {
      expect((await turnlensCommand(["init"], project.dir)).code).toBe(0);
      const before = snapshot(project.dir);
      const again = await turnlensCommand(["init"], project.dir);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("skipped tsconfig.json: already maps the served modules");
      expect(again.lastLine).toBe("nothing changed: the folder is already set up");
      expect(snapshot(project.dir)).toEqual(before);
    } finally {
      project.remove();
    }
  }, SLOW);

  test("--json prints what was done", async () => {
    const project = tempProject({});
    try {
      const init = await turnlensCommand(["init", project.dir, "--json"]);
      expect(init.code).toBe(0);
      const result = JSON.parse(init.stdout) as { created: string[]; errors: string[] };
      expect(result.created).toEqual(["tsconfig.json", join("workflows", "hello", "workflow.ts"), join("workflows", "hello", "workflow.test.ts")]);
      expect(result.errors).toEqual([]);
    } finally {
      project.remove();
    }
  }, SLOW);
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

  test("an existing tsconfig keeps its options, comments and aliases; missing paths are added", async () => {
    const project = tempProject({
      "tsconfig.json": USER_TSCONFIG,
      "types/my-vitest.d.ts": "export declare function test(name: string, fn: () => unknown): void;\n",
      "src/util.ts": "export const three = 3;\n",
      "scratch/broken.ts": "const x: number = 'not checked';\n",
    });
    try {
      const init = await turnlensCommand(["init", project.dir]);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain("updated tsconfig.json");
      expect(init.stdout).toContain('note: tsconfig.json maps "vitest" elsewhere; kept yours');
      const text = readFileSync(join(project.dir, "tsconfig.json"), "utf8");
      expect(text).toContain("// the user's own comment");
      expect(text).toContain('"exclude": ["scratch"]');
      const options = compilerOptionsOf(join(project.dir, "tsconfig.json"));
      expect(options.target).toBe("ES2020");
      expect(options.noUnusedLocals).toBe(true);
      const paths = options.paths as Record<string, string[]>;
      expect(paths["@/*"]).toEqual(["./src/*"]);
      expect(paths.vitest).toEqual(["./types/my-vitest.d.ts"]);
      expect(Object.keys(paths).sort()).toEqual(["@/*", ...SERVED].sort());

      expect((await tsc(project.dir)).stdout).toBe("");
      const again = await turnlensCommand(["init", project.dir]);
      expect(again.lastLine).toBe("nothing changed: the folder is already set up");
    } finally {
      project.remove();
    }
  }, SLOW);

  test("paths into a Turnlens install that is gone (an updated extension) are pointed at this one", async () => {
    const stale = "/nowhere/turnlens-0.0.1/dist/types";
    const project = tempProject({
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, skipLibCheck: true, paths: { "agentswf/testing": [`${stale}/agentswf/testing.d.ts`], "typebox/*": [`${stale}/node_modules/typebox/build/*/index.d.mts`] } } }, null, 2),
      "src/mine.ts": "export const notAWorkflow = 1;\n",
    });
    try {
      const init = await turnlensCommand(["init", project.dir]);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain("updated tsconfig.json");
      const paths = compilerOptionsOf(join(project.dir, "tsconfig.json")).paths as Record<string, string[]>;
      expect(paths["agentswf/testing"]).toEqual([join(ROOT, "dist", "types", "agentswf", "testing.d.ts")]);
      expect(paths["typebox/*"]).toEqual([join(ROOT, "dist", "types", "node_modules", "typebox", "build", "*", "index.d.mts")]);
      expect(Object.keys(paths).sort()).toEqual([...SERVED].sort());
      expect((await tsc(project.dir)).stdout).toBe("");
    } finally {
      project.remove();
    }
  }, SLOW);

  test("a folder with a workflow gets no example unless --example, and no file is overwritten", async () => {
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
  }, SLOW);

  test("a tsconfig that is not JSON is left alone and init exits 1", async () => {
    const project = tempProject({ "tsconfig.json": "{ not json" });
    try {
      const init = await turnlensCommand(["init", project.dir]);
      expect(init.code).toBe(1);
      expect(init.stdout).toContain("error: tsconfig.json could not be read");
      expect(readFileSync(join(project.dir, "tsconfig.json"), "utf8")).toBe("{ not json");
    } finally {
      project.remove();
    }
  }, SLOW);
});

describe("usage errors exit 2", () => {
  test("an unknown option", async () => {
    const result = await turnlensCommand(["init", "--frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option: --frobnicate");
    expect(result.stderr).toContain("Usage: turnlens init");
  }, SLOW);

  test("two folders", async () => {
    const result = await turnlensCommand(["init", "a", "b"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("init takes one folder, got 2: a b");
  }, SLOW);

  test("a file instead of a folder", async () => {
    const result = await turnlensCommand(["init", "package.json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("not a folder: package.json");
  }, SLOW);
});
