// `--cache`: a second run with nothing changed reports every test file from the cache; a changed
// workflow reruns exactly the test files whose runs read it; what reaches outside its bytes, fails,
// or is verified against a wrong entry is never given from the cache silently.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunSummary } from "../../core/execution/report.ts";
import { type CliResult, SLOW, tempProject, turnlens } from "./harness.ts";

const WORKFLOW = (name: string, step: number) => `import { defineWorkflow, Type } from "agentswf/workflow";
export const STEP = Type.Object({ done: Type.Boolean() });
export default defineWorkflow({
  name: "${name}",
  description: "Asks one agent ${step} times.",
  async run(wf) {
    const agent = await wf.agents.open({ key: "worker", runtime: "claude" });
    let done = 0;
    for (let index = 0; index < ${step}; index++) {
      const { outcome } = await agent.run({ prompt: \`Step \${index}.\`, schema: STEP });
      if (outcome.kind === "answered" && outcome.value.done) done++;
    }
    return { done };
  },
});
`;

/** A test file of the workflows `imports` (each asks `steps` turns), or of none. */
const TEST = (imports: string[], steps = 1) => `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
${imports.map((name) => `import ${name}, { STEP as ${name}Step } from "../workflows/${name}.ts";`).join("\n")}
${imports
  .map(
    (name) => `test("${name} is done", async () => {
  const run = await testWorkflow(${name}, { agents: { worker: Array.from({ length: ${steps} }, () => answer(${name}Step, { done: true })) } });
  expect(run.value).toEqual({ done: ${steps} });
});`,
  )
  .join("\n")}
test("adds", () => expect(1 + 1).toBe(2));
`;

const PROJECT = {
  "workflows/alpha.ts": WORKFLOW("alpha", 1),
  "workflows/beta.ts": WORKFLOW("beta", 1),
  "t/alpha.test.ts": TEST(["alpha"]),
  "t/beta.test.ts": TEST(["beta"]),
  "t/both.test.ts": TEST(["alpha", "beta"]),
  "t/none.test.ts": TEST([]),
};

/** The json report of a run, by file name: whether it came from the cache. */
function cachedFiles(result: CliResult): Record<string, boolean> {
  const report = JSON.parse(result.stdout) as RunSummary;
  return Object.fromEntries(report.files.map((file) => [file.file.split("/").slice(-2).join("/"), file.cached === true]));
}

describe("turnlens test --cache", () => {
  test(
    "a second run gives every file from the cache; a changed workflow reruns exactly the files whose runs read it",
    async () => {
      const project = tempProject(PROJECT);
      try {
        const run = (...more: string[]) => turnlens(["t", "--cache", "--reporter", "json", ...more], project.dir);
        const first = await run();
        expect(first.code).toBe(0);
        expect(first.stderr).toContain("cache: 0 of 4 files from");
        expect(first.stderr).toContain(", 4 stored");
        const second = await run();
        expect(second.code).toBe(0);
        expect(cachedFiles(second)).toEqual({ "t/alpha.test.ts": true, "t/beta.test.ts": true, "t/both.test.ts": true, "t/none.test.ts": true });
        expect(JSON.parse(second.stdout)).toMatchObject({ passed: 8, failed: 0 });
        // beta now asks two turns, and its tests' scripts give one: the files that read it run, and fail.
        writeFileSync(join(project.dir, "workflows/beta.ts"), WORKFLOW("beta", 2));
        const third = await run();
        expect(cachedFiles(third)).toEqual({ "t/alpha.test.ts": true, "t/beta.test.ts": false, "t/both.test.ts": false, "t/none.test.ts": true });
        expect(third.code).toBe(1);
        // A failure is never stored: the next run runs them again.
        expect(cachedFiles(await run())).toEqual({ "t/alpha.test.ts": true, "t/beta.test.ts": false, "t/both.test.ts": false, "t/none.test.ts": true });
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "--cache-verify 100% runs every cached file again and finds them alike; a wrong entry fails the run and names the file",
    async () => {
      const project = tempProject(PROJECT);
      try {
        await turnlens(["t", "--cache"], project.dir);
        const verified = await turnlens(["t", "--cache-verify", "100%"], project.dir);
        expect(verified.code).toBe(0);
        expect(verified.stderr).toContain("cache: 4 of 4 files from");
        expect(verified.stderr).toContain("4 run again to verify, all alike");
        // An entry that says a test was skipped, where a run passes it: the cache is wrong, and the run says so.
        const entries = join(project.dir, "node_modules/.cache/turnlens/ac");
        for (const name of readdirSync(entries)) {
          const path = join(entries, name);
          const text = readFileSync(path, "utf8");
          if (text.includes('"name":"adds"')) writeFileSync(path, text.replaceAll('"status":"passed"', '"status":"skipped"'));
        }
        const wrong = await turnlens(["t", "--cache-verify", "100%"], project.dir);
        expect(wrong.code).toBe(1);
        expect(wrong.stderr).toContain(
          'cache-verify: t/none.test.ts: "adds" was skipped and is passed now, against its cached result: the cache gave a wrong result (a bug; the run fails)',
        );
        expect(wrong.stderr).toContain("4 run again to verify, 4 NOT alike");
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a file whose code reads files is stored against what it read: a changed file, a file that appears and a folder that grows each rerun their readers",
    async () => {
      const project = tempProject({
        ...PROJECT,
        "t/reads.test.ts":
          'import { readFileSync } from "node:fs";\nimport { expect, test } from "bun:test";\ntest("reads", () => expect(readFileSync(new URL("../data.txt", import.meta.url), "utf8")).toBe("one"));\n',
        "t/absent.test.ts":
          'import { existsSync } from "node:fs";\nimport { expect, test } from "bun:test";\ntest("absent", () => expect(existsSync("later.txt")).toBe(false));\n',
        "t/lists.test.ts":
          'import { readdir } from "node:fs/promises";\nimport { expect, test } from "bun:test";\ntest("lists", async () => expect(await readdir(new URL("../folder", import.meta.url))).toEqual(["a.txt"]));\n',
        "data.txt": "one",
        "folder/a.txt": "a",
      });
      try {
        const run = () => turnlens(["t", "--cache", "--reporter", "json"], project.dir);
        const first = await run();
        expect(first.code).toBe(0);
        expect(first.stderr).toContain("cache: 0 of 7 files from");
        expect(first.stderr).toContain(", 7 stored");
        const second = await run();
        expect(second.stderr).toContain("cache: 7 of 7 files from");
        writeFileSync(join(project.dir, "data.txt"), "two");
        writeFileSync(join(project.dir, "later.txt"), "here");
        writeFileSync(join(project.dir, "folder/b.txt"), "b");
        const third = await run();
        // None of the three is an input esbuild saw: had their reads not been keyed, each would pass from the cache.
        expect(cachedFiles(third)).toMatchObject({ "t/reads.test.ts": false, "t/absent.test.ts": false, "t/lists.test.ts": false, "t/alpha.test.ts": true });
        expect(JSON.parse(third.stdout)).toMatchObject({ failed: 3 });
        expect(third.code).toBe(1);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a file whose code writes outside the runner's folders, reads the environment, starts a process or connects (itself or through a package) is never stored; a broken entry is a miss",
    async () => {
      const project = tempProject({
        ...PROJECT,
        "t/writes.test.ts":
          'import { writeFileSync } from "node:fs";\nimport { expect, test } from "bun:test";\ntest("writes", () => expect(writeFileSync("out.txt", "x")).toBeUndefined());\n',
        "t/env.test.ts": 'import { expect, test } from "bun:test";\ntest("env", () => expect(process.env.HOME).toBeDefined());\n',
        "t/spawns.test.ts":
          'import { execFileSync } from "node:child_process";\nimport { expect, test } from "bun:test";\ntest("spawns", () => expect(String(execFileSync("echo", ["hi"]))).toBe("hi\\n"));\n',
        // Packages whose module names are made at run time, which no reading of their text finds
        // (a package's code already loaded by an earlier file is not read again either): what they
        // do is seen as it happens.
        "node_modules/spawner/package.json": '{ "name": "spawner", "type": "module", "exports": "./index.js" }',
        "node_modules/spawner/index.js": `const { execFileSync } = await import("node:" + "child_" + "process");
export default () => String(execFileSync("echo", ["hi"]));
`,
        "node_modules/connector/package.json": '{ "name": "connector", "type": "module", "exports": "./index.js" }',
        "node_modules/connector/index.js": `const { connect, createServer } = await import("node:" + "n" + "et");
export default () => new Promise((resolve) => {
  const server = createServer((socket) => socket.end("hi"));
  server.listen(0, "127.0.0.1", () => {
    const client = connect(server.address().port, "127.0.0.1");
    let text = "";
    client.on("data", (chunk) => (text += chunk));
    client.on("end", () => server.close(() => resolve(text)));
  });
});
`,
        "t/packageSpawns.test.ts":
          'import spawn from "spawner";\nimport { expect, test } from "bun:test";\ntest("a package spawns", () => expect(spawn()).toBe("hi\\n"));\n',
        "t/packageConnects.test.ts":
          'import connect from "connector";\nimport { expect, test } from "bun:test";\ntest("a package connects", async () => expect(await connect()).toBe("hi"));\n',
      });
      try {
        const first = await turnlens(["t", "--cache"], project.dir);
        expect(first.code).toBe(0);
        expect(first.stderr).toContain("cache: 0 of 9 files from");
        expect(first.stderr).toContain(", 4 stored");
        const second = await turnlens(["t", "--cache", "--reporter", "json"], project.dir);
        expect(cachedFiles(second)).toMatchObject({
          "t/writes.test.ts": false,
          "t/env.test.ts": false,
          "t/spawns.test.ts": false,
          "t/packageSpawns.test.ts": false,
          "t/packageConnects.test.ts": false,
          "t/alpha.test.ts": true,
        });
        const entries = join(project.dir, "node_modules/.cache/turnlens/ac");
        for (const name of readdirSync(entries)) writeFileSync(join(entries, name), "{ not json");
        const broken = await turnlens(["t", "--cache", "--reporter", "json"], project.dir);
        expect(Object.values(cachedFiles(broken))).toEqual(Array.from({ length: 9 }, () => false));
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});
