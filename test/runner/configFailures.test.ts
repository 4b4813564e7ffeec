// A config that loops, a config Proxy that throws, a key named like one of Object's own members
// (config-hangs-server), or a config that ends its process: each is a clear error naming the file
// and exit 2, never a hang, a crash or a silent stop. The config runs in a process of its own,
// stopped after CONFIG_LOAD_TIMEOUT_MS. Each runs `turnlens test` as a child process.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, SLOW, tempProject, turnlens, type CliResult } from "./harness.ts";

const PASSES = 'import { test } from "bun:test";\ntest("passes", () => {});\n';
const KEYS =
  'it takes "include", "exclude", "testTimeout", "maxWorkers", "reporters", "outputFile", "silent", "setupFiles", "passWithNoTests", "bail", "testNamePattern"';

/** A case file of config-hangs-server, copied into the fixtures. */
function caseFile(name: string): string {
  return readFileSync(join(FIXTURES, "configHangs", name), "utf8");
}

/** `turnlens test` in a fresh project holding `files` and a passing test file. */
async function runIn(files: Record<string, string>): Promise<CliResult> {
  const project = tempProject({ ...files, "one.test.ts": PASSES });
  try {
    return await turnlens([], project.dir);
  } finally {
    project.remove();
  }
}

describe("a config that cannot be loaded", () => {
  test(
    "a turnlens.config.js that loops for ever is stopped after 10 s, named, and the command exits 2",
    async () => {
      const result = await runIn({ "turnlens.config.js": caseFile("loops.turnlens.config.js") });
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 2,
        stdout: "",
        stderr: "turnlens.config.js did not finish loading within 10 s and was stopped (a config must export its settings, not loop or wait)\n",
      });
    },
    SLOW,
  );

  test(
    "a turnlens.config.js exporting a Proxy whose traps throw names the file and the error, exit 2",
    async () => {
      const result = await runIn({ "turnlens.config.js": caseFile("proxy.turnlens.config.js") });
      expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        code: 2,
        stdout: "",
        stderr: "turnlens.config.js failed to load: get boom\n",
      });
    },
    SLOW,
  );

  test(
    'a key named "toString" in turnlens.config.js is refused as an unknown key, exit 2',
    async () => {
      const result = await runIn({ "turnlens.config.js": caseFile("tostring.turnlens.config.js") });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: `turnlens.config.js takes no option "toString"; ${KEYS}\n` });
    },
    SLOW,
  );

  test(
    'a key named "constructor" in package.json\'s "turnlens" key is refused as an unknown key, exit 2',
    async () => {
      const result = await runIn({ "package.json": caseFile("package.json.example") });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: `the "turnlens" key of package.json takes no option "constructor"; ${KEYS}\n` });
    },
    SLOW,
  );

  test(
    'a key named "__proto__" in turnlens.config.json is refused as an unknown key, exit 2',
    async () => {
      const result = await runIn({ "turnlens.config.json": '{ "__proto__": { "testTimeout": 1 } }\n' });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: `turnlens.config.json takes no option "__proto__"; ${KEYS}\n` });
    },
    SLOW,
  );

  test(
    "a turnlens.config.js that ends its process before exporting is named, exit 2",
    async () => {
      const result = await runIn({ "turnlens.config.js": "process.exit(0);\n" });
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: "turnlens.config.js ended the process loading it (exit code 0) before exporting its settings\n",
      });
    },
    SLOW,
  );

  test(
    "a function among a config's settings is refused: settings are plain data, exit 2",
    async () => {
      const result = await runIn({ "turnlens.config.js": 'module.exports = { reporters: [["junit", { suiteName: () => "x" }]] };\n' });
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: 'turnlens.config.js must export plain settings (strings, numbers, arrays, objects, RegExps): () => "x" could not be cloned.\n',
      });
    },
    SLOW,
  );

  test(
    "what a config prints goes to stderr, and its settings still apply",
    async () => {
      const result = await runIn({ "turnlens.config.js": 'console.log("config says hi");\nmodule.exports = { testNamePattern: /nothing/, passWithNoTests: true };\n' });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "config says hi\n" });
      expect(result.stdout).not.toContain("config says hi");
    },
    SLOW,
  );
});
