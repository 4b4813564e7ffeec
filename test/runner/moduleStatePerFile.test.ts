// A warm worker runs file after file: each file gets its own modules' state fresh, however the
// runner loads them (a bundle per file, or modules transformed once), while a package from
// node_modules is loaded once per worker and keeps its state (issue 29, acceptance 2).
import { describe, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests, DIR, reportOf } from "./cliTable.ts";

const NAMES = ["first", "second", "third", "fourth"];

/** One test file: it mutates the shared modules at its top level and in its tests, and writes what it saw to observed.jsonl. */
function testFile(name: string): string {
  return `import { appendFileSync } from "node:fs";
import { expect, test } from "bun:test";
import "./register.ts";
import { settings } from "./settings.ts";
import { bump, seen } from "./state.ts";

// Read before this file changes them: what an earlier file of the worker left would show here.
const modeAtImport = settings.mode;
const registeredAtImport = settings.registered;
settings.mode = "${name}";
appendFileSync(new URL("./observed.jsonl", import.meta.url), JSON.stringify({ file: "${name}", pid: process.pid }) + "\\n");

test("${name} starts from its modules' initial state", () => {
  expect(modeAtImport).toBe("default");
  expect(registeredAtImport).toEqual(["register.ts"]);
  expect(seen.size).toBe(0);
  seen.set("${name}", 1);
  expect(bump()).toBe(1);
});

test("${name}'s later test sees what its earlier test left, through a dynamic import too", async () => {
  expect([...seen.keys()]).toEqual(["${name}"]);
  expect(bump()).toBe(2);
  const again = await import("./state.ts");
  expect(again.bump()).toBe(3);
  expect(settings.mode).toBe("${name}");
});
`;
}

/** The project: modules with top-level mutable state, one that changes another when imported, and the test files. */
function project(): Record<string, string> {
  const files: Record<string, string> = {
    "state.ts": "let count = 0;\nexport const seen = new Map<string, number>();\nexport function bump(): number {\n  return ++count;\n}\n",
    "settings.ts": 'export const settings = { mode: "default", registered: [] as string[] };\n',
    "register.ts": 'import { settings } from "./settings.ts";\nsettings.registered.push("register.ts");\n',
  };
  for (const name of NAMES) files[`${name}.test.ts`] = testFile(name);
  return files;
}

/** The contrast: test files that each count once on a package's counter and write what it said. */
function packageProject(): Record<string, string> {
  const files: Record<string, string> = {
    "node_modules/shared-counter/package.json": '{ "name": "shared-counter", "type": "module", "exports": "./index.js" }\n',
    "node_modules/shared-counter/index.js": "let count = 0;\nexport function bump() {\n  return ++count;\n}\n",
  };
  for (const name of NAMES)
    files[`${name}.test.ts`] = `import { appendFileSync } from "node:fs";
import { test } from "bun:test";
import { bump } from "shared-counter";

appendFileSync(new URL("./observed.jsonl", import.meta.url), JSON.stringify({ file: "${name}", pid: process.pid, packageCount: bump() }) + "\\n");

test("${name} counts once", () => {});
`;
  return files;
}

interface Observed {
  file: string;
  pid: number;
  packageCount?: number;
}

function observed(dir: string): Observed[] {
  return readFileSync(join(dir, "observed.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Observed);
}

describe("one worker running several files", () => {
  cliTests([
    {
      name: "each file sees its own modules' state fresh: a counter, a Map, and a module another module changes on import",
      files: project(),
      args: [DIR, "--maxWorkers", "1", "--reporter", "json"],
      code: 0,
      check: (result, dir) => {
        const report = reportOf(result);
        expect(report.files.map((file) => [file.file.slice(dir.length + 1), file.tests.map((test) => test.status), file.warnings ?? []]).sort()).toEqual(
          NAMES.map((name) => [`${name}.test.ts`, ["passed", "passed"], []]).sort(),
        );
        // The files really shared one process: else fresh state would prove nothing.
        const seen = observed(dir);
        expect(seen.map((one) => one.file).sort()).toEqual([...NAMES].sort());
        expect(new Set(seen.map((one) => one.pid)).size).toBe(1);
      },
    },
    {
      name: "a package from node_modules is loaded once per worker, so its state does carry from file to file",
      files: packageProject(),
      args: [DIR, "--maxWorkers", "1", "--reporter", "json"],
      code: 0,
      check: (_result, dir) => {
        const seen = observed(dir);
        expect(new Set(seen.map((one) => one.pid)).size).toBe(1);
        expect(seen.map((one) => one.packageCount)).toEqual([1, 2, 3, 4]);
      },
    },
  ]);
});
