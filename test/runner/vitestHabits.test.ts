// A Vitest user's habits on the command line (issue 26): `--version`/`-v`, `--run`, `-t=…` and
// `--flag=value` for every flag of the table, usage errors that say what is wrong with the value,
// and a file whose every test was filtered out marked skipped. The CLI runs as a child process.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type FinalResults, Parser } from "tap-parser";
import { parseTestArgs, TEST_FLAGS } from "../../core/runner/testFlags.ts";
import { cliTests } from "./cliTable.ts";
import { ROOT } from "./harness.ts";

const MATH = `import { describe, expect, test } from "bun:test";
describe("math", () => {
  test("adds", () => expect(1 + 1).toBe(2));
  test("subtracts", () => expect(2 - 1).toBe(1));
});
`;

const OTHER = `import { expect, test } from "bun:test";
test("x", () => expect(1).toBe(1));
test("y", () => expect(1).toBe(1));
test("z", () => expect(1).toBe(1));
`;

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
/** What `vitest --version` prints, in Turnlens's name: `turnlens/0.1.0 linux-x64 node-v22.12.0`. */
const versionLine = `turnlens/${version} ${process.platform}-${process.arch} node-${process.version}\n`;

describe("Vitest's flags and forms", () => {
  cliTests([
    {
      name: "turnlens --version, turnlens -v and turnlens test --version print the package's version, as vitest --version does",
      steps: [
        { command: "--version", args: [], code: 0, stdout: versionLine, stderr: "" },
        { command: "-v", args: [], code: 0, stdout: versionLine, stderr: "" },
        { args: ["--version"], code: 0, stdout: versionLine, stderr: "" },
      ],
    },
    {
      name: "--run runs once and exits, and wins over --watch, as in Vitest",
      files: { "math.test.ts": MATH },
      steps: [
        { args: ["--run"], code: 0, lastLine: "2 passed, 0 failed" },
        { args: ["--watch", "--run"], code: 0, lastLine: "2 passed, 0 failed" },
      ],
    },
    {
      name: "-t=pattern selects the tests -t pattern selects",
      files: { "math.test.ts": MATH },
      args: ["-t=adds"],
      code: 0,
      lastLine: "1 passed, 0 failed, 1 skipped",
    },
    {
      name: "--help lists --run and --version",
      args: ["--help"],
      code: 0,
      stdout: { has: ["      --run  ", "  -v, --version  "] },
    },
  ]);
});

/** A value each flag that takes one accepts, for the test below; a flag added to the table needs one here. */
const EXAMPLE_VALUES: Record<string, string> = {
  "--testNamePattern": "math adds",
  "--testTimeout": "10s",
  "--reporter": "dot",
  "--outputFile": "report.json",
  "--maxWorkers": "50%",
  "--bail": "3",
  "--changed": "main",
  "--shard": "2/3",
  "--config": "turnlens.config.ts",
  "--mutate-budget": "30s",
  "--mutate-threshold": "80",
  "--timeline": "timelines",
  "--durations": "turnlens-durations.json",
  // An optional folder: taken when it is one (here, the repository's examples/).
  "--merge-reports": "examples",
  "--cache-verify": "10%",
};

test("every flag that takes a value reads --flag=value as --flag value, by each of its names (the table's, none special-cased)", () => {
  const takesValue = TEST_FLAGS.filter((flag) => flag.value.startsWith(" "));
  expect(takesValue.map((flag) => flag.name).sort()).toEqual(Object.keys(EXAMPLE_VALUES).sort());
  for (const flag of takesValue) {
    const value = EXAMPLE_VALUES[flag.name]!;
    const names = [flag.name, ...(flag.short ? [flag.short] : []), ...(flag.olderNames ?? []), ...(flag.keyed ? [`${flag.name}.junit`] : [])];
    for (const name of names) {
      const spaced = parseTestArgs([name, value, "tests"], ROOT);
      expect({ name, parsed: parseTestArgs([`${name}=${value}`, "tests"], ROOT) }).toEqual({ name, parsed: spaced });
      expect(spaced).not.toEqual(parseTestArgs(["tests"], ROOT));
    }
  }
});

describe("a value a flag refuses is named, with what is wrong with it", () => {
  /** One row per flag: each bad value and the exact line it gets (exit 2). */
  const refused = (name: string, cases: Array<[string[], string]>) => ({
    name,
    steps: cases.map(([args, line]) => ({ args, code: 2, stderr: `${line}\n` })),
  });
  const shard = "--shard needs i/n such as 1/3, the i-th of n shares, or auto";
  const timeout = "--testTimeout needs a duration such as 10s (0: no timeout)";
  const workers = "--maxWorkers needs a number of workers from 1, or a share of the cores such as 50%";
  cliTests([
    refused("--shard: an index above the count, an index 0, a count 0, not i/n, and no value", [
      [["--shard", "4/3"], `${shard}: "4/3" has the index 4 above the count 3`],
      [["--shard=0/3"], `${shard}: "0/3" has the index 0, and shares count from 1`],
      [["--shard", "1/0"], `${shard}: "1/0" has the count 0, and there is at least 1 share`],
      [["--shard", "one/3"], `${shard}: "one/3" is not two whole numbers joined by /`],
      [["--shard"], shard],
    ]),
    refused("--testTimeout: a word, an unknown unit, a negative number, and more than a timer holds", [
      [["--testTimeout", "soon"], `${timeout}: "soon" is not a number followed by ms, s or m`],
      [["--testTimeout=10h"], `${timeout}: "10h" has the unit "h"; the units are ms, s and m`],
      [["--testTimeout=-5s"], `${timeout}: "-5s" is negative`],
      [["--testTimeout", "40000m"], '--testTimeout takes at most 2147483647ms (about 24 days), what a timer can hold: "40000m" is 2400000000ms'],
    ]),
    refused("--maxWorkers: 0, a share above 100%, and neither a number nor a share", [
      [["--maxWorkers", "0"], `${workers}: 0 workers would run no test`],
      [["--maxWorkers=150%"], `${workers}: "150%" is above 100%`],
      [["--maxWorkers", "half"], `${workers}: "half" is neither a whole number nor a percentage`],
    ]),
    refused("--bail, --mutate-budget and --mutate-threshold: values they cannot take", [
      [["--bail=some"], '--bail takes a number of failed tests, such as --bail 3: "some" is not a whole number'],
      [["--mutate-budget", "0"], '--mutate-budget needs a duration such as 30s: "0" leaves no time for a mutant'],
      [["--mutate-threshold", "120"], '--mutate-threshold needs a percent from 0 to 100: "120" is above 100'],
      [["--mutate-threshold", "most"], '--mutate-threshold needs a percent from 0 to 100: "most" is not a number'],
    ]),
    refused("flags without a value: what follows their = is named", [
      [["--coverage=xml"], "--coverage takes no value, or =json: =xml is neither"],
      [["--mutate="], "--mutate takes no value, or =json: = with nothing after it is neither"],
      [["--silent=yes"], "--silent takes no value (or =true, =false): =yes is neither"],
      [["--watch=1"], "--watch takes no value (or =true, =false): =1 is neither"],
      [["-t="], "-t needs a pattern: it was given an empty one, which every test would match"],
    ]),
  ]);
});

describe("a file whose tests were all filtered out", () => {
  cliTests([
    {
      name: "is marked skipped (↓ file (3 skipped)) as Vitest marks it, beside a file that ran one test",
      files: { "math.test.ts": MATH, "other.test.ts": OTHER },
      args: ["-t", "adds"],
      code: 0,
      stdout: { has: ["✓ math.test.ts (1 test, 1 skipped)\n", "↓ other.test.ts (3 skipped)\n"], lacks: ["0 tests"] },
      lastLine: "1 passed, 0 failed, 4 skipped",
    },
    {
      name: "is a skipped test point in TAP (ok 2 - other.test.ts # SKIP), as Vitest's TAP reporter gives it",
      files: { "math.test.ts": MATH, "other.test.ts": OTHER },
      args: ["-t", "adds", "--reporter", "tap"],
      code: 0,
      stdout: { has: ["    ok 3 - z # SKIP\nok 2 - other.test.ts # SKIP\n"], matches: /\nok 1 - math\.test\.ts # time=\d+ms\n/ },
      // A strict TAP parser reads it: two files, one of them skipped, and the run ok.
      check: async (result) => {
        const files = await new Promise<FinalResults>((resolve) => {
          const parser = new Parser({ strict: true });
          parser.on("complete", resolve);
          parser.end(result.stdout);
        });
        expect({ count: files.count, pass: files.pass, skip: files.skip, ok: files.ok }).toEqual({ count: 2, pass: 2, skip: 1, ok: true });
      },
    },
  ]);
});
