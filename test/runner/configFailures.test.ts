// A config that loops, a config Proxy that throws, a key named like one of Object's own members
// (config-hangs-server), or a config that ends its process: each is a clear error naming the file
// and exit 2, never a hang, a crash or a silent stop. The config runs in a process of its own,
// stopped after CONFIG_LOAD_TIMEOUT_MS. Each runs `turnlens test` as a child process.
import { describe } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type CliRow, cliTests } from "./cliTable.ts";
import { FIXTURES } from "./harness.ts";

const PASSES = 'import { test } from "bun:test";\ntest("passes", () => {});\n';
const KEYS =
  'it takes "include", "exclude", "testTimeout", "maxWorkers", "reporters", "outputFile", "silent", "setupFiles", "passWithNoTests", "bail", "testNamePattern", "define", "env"';

/** A case file of config-hangs-server, copied into the fixtures. */
function caseFile(name: string): string {
  return readFileSync(join(FIXTURES, "configHangs", name), "utf8");
}

/** A row: `turnlens test` in a fresh project holding `files` and a passing test file, exit 2 with `stderr` (and no stdout, if said). */
const refused = (name: string, files: Record<string, string>, stderr: string, stdout?: string): CliRow => ({
  name,
  files: { ...files, "one.test.ts": PASSES },
  args: [],
  code: 2,
  stderr,
  ...(stdout === undefined ? {} : { stdout }),
});

describe("a config that cannot be loaded", () => {
  cliTests([
    refused(
      "a turnlens.config.js that loops for ever is stopped after 10 s, named, and the command exits 2",
      { "turnlens.config.js": caseFile("loops.turnlens.config.js") },
      "turnlens.config.js did not finish loading within 10 s and was stopped (a config must export its settings, not loop or wait)\n",
      "",
    ),
    refused(
      "a turnlens.config.js exporting a Proxy whose traps throw names the file and the error, exit 2",
      { "turnlens.config.js": caseFile("proxy.turnlens.config.js") },
      "turnlens.config.js failed to load: get boom\n",
      "",
    ),
    refused(
      'a key named "toString" in turnlens.config.js is refused as an unknown key, exit 2',
      { "turnlens.config.js": caseFile("tostring.turnlens.config.js") },
      `turnlens.config.js takes no option "toString"; ${KEYS}\n`,
    ),
    refused(
      'a key named "constructor" in package.json\'s "turnlens" key is refused as an unknown key, exit 2',
      { "package.json": caseFile("package.json.example") },
      `the "turnlens" key of package.json takes no option "constructor"; ${KEYS}\n`,
    ),
    refused(
      'a key named "__proto__" in turnlens.config.json is refused as an unknown key, exit 2',
      { "turnlens.config.json": '{ "__proto__": { "testTimeout": 1 } }\n' },
      `turnlens.config.json takes no option "__proto__"; ${KEYS}\n`,
    ),
    refused(
      "a turnlens.config.js that ends its process before exporting is named, exit 2",
      { "turnlens.config.js": "process.exit(0);\n" },
      "turnlens.config.js ended the process loading it (exit code 0) before exporting its settings\n",
    ),
    refused(
      "a function among a config's settings is refused: settings are plain data, exit 2",
      { "turnlens.config.js": 'module.exports = { reporters: [["junit", { suiteName: () => "x" }]] };\n' },
      'turnlens.config.js must export plain settings (strings, numbers, arrays, objects, RegExps): () => "x" could not be cloned.\n',
    ),
    {
      name: "what a config prints goes to stderr, and its settings still apply",
      files: { "turnlens.config.js": 'console.log("config says hi");\nmodule.exports = { testNamePattern: /nothing/, passWithNoTests: true };\n', "one.test.ts": PASSES },
      args: [],
      code: 0,
      stderr: "config says hi\n",
      stdout: { lacks: ["config says hi"] },
    },
  ]);
});
