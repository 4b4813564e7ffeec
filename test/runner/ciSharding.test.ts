// Sharding as a CI drives it: Bazel's test sharding protocol spoken without a wrapper (the four
// variables set as `bazel test` sets them with shard_count), and `--durations` written by one run
// and read by the next one's `--shard` to split the files by time.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliTest } from "./cliTable.ts";
import { SLOW, tempProject, turnlens } from "./harness.ts";

const NAMES = ["a", "b", "c", "d", "e", "f", "g"];
const FILES = Object.fromEntries(
  NAMES.map((name) => [`t/${name}.test.ts`, `import { expect, test } from "bun:test";\ntest("file ${name}", () => { expect(1).toBe(1); });\n`]),
);

/** The test files a JUnit report has a testsuite of. */
const suitesIn = (xml: string) => [...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((match) => match[1]!);

describe("Bazel's test sharding protocol", () => {
  test(
    "each shard runs its share, touches TEST_SHARD_STATUS_FILE and writes its JUnit report to XML_OUTPUT_FILE",
    async () => {
      const project = tempProject(FILES);
      const outputs = mkdtempSync(join(tmpdir(), "turnlens-bazel-"));
      try {
        const seen: string[] = [];
        for (const index of [0, 1, 2]) {
          const status = join(outputs, `status-${index}`);
          const xml = join(outputs, `shard-${index}`, "test.xml");
          const env = { TEST_TOTAL_SHARDS: "3", TEST_SHARD_INDEX: String(index), TEST_SHARD_STATUS_FILE: status, XML_OUTPUT_FILE: xml };
          const run = await turnlens(["t"], project.dir, env);
          expect(run.code).toBe(0);
          expect(run.stderr).toContain(`shard ${index + 1}/3, from Bazel's TEST_SHARD_INDEX=${index} and TEST_TOTAL_SHARDS=3`);
          expect(existsSync(status)).toBe(true);
          const suites = suitesIn(readFileSync(xml, "utf8"));
          // Every third file of the sorted list, from the shard's own: the split `--shard i/3` makes.
          expect(suites).toEqual(NAMES.filter((_, position) => position % 3 === index).map((name) => `t/${name}.test.ts`));
          seen.push(...suites);
        }
        expect(seen.sort()).toEqual(NAMES.map((name) => `t/${name}.test.ts`));
      } finally {
        project.remove();
        rmSync(outputs, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  test(
    "--shard on the command line wins over Bazel's variables, and the status file is then left alone",
    async () => {
      const project = tempProject(FILES);
      const status = join(project.dir, "status");
      try {
        const run = await turnlens(["t", "--shard", "1/2"], project.dir, { TEST_TOTAL_SHARDS: "3", TEST_SHARD_INDEX: "2", TEST_SHARD_STATUS_FILE: status });
        expect(run.code).toBe(0);
        expect(run.stderr).toContain("--shard 1/2 is run; Bazel's TEST_SHARD_INDEX=2 and TEST_TOTAL_SHARDS=3 are not read");
        expect(run.lastLine).toBe("4 passed, 0 failed");
        expect(existsSync(status)).toBe(false);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );
});

describe("--durations", () => {
  cliTest({
    name: "a run writes each file's time; the next --shard splits by it and says so; an unreadable file is said and the split is by count",
    files: FILES,
    steps: [
      {
        args: ["t", "--durations", "times.json"],
        code: 0,
        check: (_, dir) => {
          const written = JSON.parse(readFileSync(join(dir, "times.json"), "utf8"));
          expect(written).toMatchObject({ turnlens: "durations", version: 1 });
          expect(Object.keys(written.files)).toEqual(NAMES.map((name) => `t/${name}.test.ts`));
        },
      },
      {
        args: ["t", "--shard", "2/3", "--durations", "times.json"],
        code: 0,
        stderr: { matches: /shard 2\/3: \d of 7 files, split by time \(times\.json knows 7; ~[\d.]+ s of work expected here\)/ },
      },
      {
        before: (dir) => rmSync(join(dir, "times.json")),
        args: ["t", "--shard", "2/3", "--durations", "bad.json"],
        code: 0,
        stderr: { has: ["the durations file", "bad.json could not be read", "; the files are split by count"] },
      },
    ],
    setup: (dir) => {
      // A durations file that is not JSON, as a broken CI cache might restore it.
      writeFileSync(join(dir, "bad.json"), "{ not json");
    },
  });
});
