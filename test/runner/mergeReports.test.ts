// Shards run apart (each its own process and temporary folder, as separate machines would be), each
// writing a blob report, then `turnlens merge-reports`: the merged reports are the ones a single run
// gives, times aside; a shard missing, or split differently, fails the merged run by name.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CliResult, ROOT, SLOW, tempProject, turnlens, turnlensCommand } from "./harness.ts";

/** A test file: `index` picks what it does, so that the suite has passes, a failure, output, a skip and a file that cannot load. */
function testFile(index: number): string {
  const lines = ['import { describe, expect, test } from "bun:test";', `describe("file ${index}", () => {`];
  // A few files take ~20× the rest (100 ms against a few), as a suite's slow files do.
  if (index % 33 === 4) lines.push(`  test("adds", async () => { await new Promise((resolve) => setTimeout(resolve, 100)); expect(${index} + 1).toBe(${index + 1}); });`);
  else lines.push(`  test("adds", () => { expect(${index} + 1).toBe(${index + 1}); });`);
  if (index % 4 === 1) lines.push(`  test("prints", () => { console.log("out of file ${index}"); console.error("err of file ${index}"); });`);
  if (index % 5 === 2) lines.push(`  test("compares", () => { expect({ list: [1, 2, ${index}] }).toEqual({ list: [1, 2, 3] }); });`);
  if (index % 6 === 3) lines.push('  test.skip("is skipped", () => {});');
  lines.push("});");
  if (index === 7) lines.push('throw new Error("file 7 cannot load");');
  return `${lines.join("\n")}\n`;
}

/** `count` test files, `t/f000.test.ts`…. */
const suiteOf = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`t/f${String(index).padStart(3, "0")}.test.ts`, testFile(index)]));
const SUITE = suiteOf(14);

/** A report's text with what differs between any two runs (times, dates, the host) taken out. */
function timeless(text: string): string {
  return text
    .replace(/\d+(\.\d+)?\s?(ms|s)\b/g, "<time>")
    .replace(/"(durationMs|startTime)":\s?[\d.]+/g, '"$1":<time>')
    .replace(/(time|timestamp|hostname)="[^"]*"/g, '$1="<…>"');
}

/** Runs `turnlens test` in `dir` with a temporary folder of its own, as a machine of its own would have. */
function apart(args: string[], dir: string): Promise<CliResult> {
  const own = mkdtempSync(join(tmpdir(), "turnlens-shard-machine-"));
  return turnlens(args, dir, { TMPDIR: own }).finally(() => rmSync(own, { recursive: true, force: true }));
}

const REPORTS = ["--reporter", "default", "--reporter", "junit", "--outputFile.junit", "REPORT.xml", "--reporter", "json", "--outputFile.json", "REPORT.json"];
const reportsTo = (name: string) => REPORTS.map((arg) => arg.replace("REPORT", name));

describe("turnlens merge-reports", () => {
  test(
    "400 files in 8 shards run apart, split by an earlier run's durations, merge into the default, junit and json reports of one run, times aside",
    async () => {
      const project = tempProject(suiteOf(400));
      try {
        const single = await apart(["t", "--maxWorkers", "1", "--durations", "times.json", ...reportsTo("single")], project.dir);
        expect(single.code).toBe(1);
        const shards = Array.from({ length: 8 }, (_, index) => `${index + 1}/8`);
        for (const shard of shards) {
          const run = await apart(["t", "--shard", shard, "--durations", "times.json", "--reporter", "blob"], project.dir);
          expect(run.stderr).toContain(`shard ${shard}: `);
          expect(run.stderr).toContain(", split by time (times.json knows 400;");
          expect(run.stderr).toContain(`blob report written to ${join(project.dir, ".turnlens-reports", `blob-${shard.replace("/", "-")}.json`)}`);
        }
        expect(readdirSync(join(project.dir, ".turnlens-reports")).length).toBe(8);
        const merged = await turnlensCommand(["merge-reports", ...reportsTo("merged")], project.dir);
        expect(merged.code).toBe(1);
        expect(merged.stderr).toContain(`merge-reports: 8 blob reports from ${join(project.dir, ".turnlens-reports")}, shards of 8`);
        const read = (name: string) => timeless(readFileSync(join(project.dir, name), "utf8"));
        expect(read("merged.json")).toBe(read("single.json"));
        expect(read("merged.xml")).toBe(read("single.xml"));
        expect(timeless(merged.stdout)).toBe(timeless(single.stdout));
        // The single run's document really holds the suite: 400 files, a load error, failures, output, skips.
        const document = JSON.parse(readFileSync(join(project.dir, "single.json"), "utf8"));
        expect(document.files.length).toBe(400);
        expect(document).toMatchObject({ passed: 499, failed: 80, skipped: 67 });
        expect(single.stdout).toContain("out of file 5");
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a shard's blob missing, or a shard split from other files, fails the merged run and says which",
    async () => {
      const project = tempProject(SUITE);
      try {
        for (const shard of ["1/3", "3/3"]) await apart(["t", "--shard", shard, "--reporter", "blob"], project.dir);
        const missing = await turnlensCommand(["merge-reports", "--reporter", "json"], project.dir);
        expect(missing.code).toBe(1);
        expect(missing.stderr).toContain("merge-reports: shard 2/3 has no blob here: its files are not in this report");
        // Shard 2 run after a file was added: its split is not the others'.
        writeFileSync(join(project.dir, "t", "new.test.ts"), testFile(0));
        await apart(["t", "--shard", "2/3", "--reporter", "blob"], project.dir);
        const split = await turnlensCommand(["merge-reports", ".turnlens-reports"], project.dir);
        expect(split.code).toBe(1);
        expect(split.stdout).toContain(
          "merge-reports: blob-2-3.json (shard 2/3) was split from other files or other durations than blob-1-3.json (shard 1/3): give every shard the same files and the same --durations file",
        );
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test(
    "a blob relocates: merged in another checkout of the project, its paths are that checkout's",
    async () => {
      const project = tempProject(SUITE);
      const elsewhere = tempProject(SUITE);
      try {
        for (const shard of ["1/2", "2/2"]) await apart(["t", "--shard", shard, "--reporter", "blob"], project.dir);
        mkdirSync(join(elsewhere.dir, "blobs"));
        for (const name of readdirSync(join(project.dir, ".turnlens-reports"))) {
          writeFileSync(join(elsewhere.dir, "blobs", name), readFileSync(join(project.dir, ".turnlens-reports", name)));
        }
        const merged = await turnlensCommand(["merge-reports", "blobs", "--reporter", "json"], elsewhere.dir);
        expect(merged.code).toBe(1);
        const document = JSON.parse(merged.stdout);
        expect(document.files.map((file: { file: string }) => file.file)).toEqual(Object.keys(SUITE).map((name) => join(elsewhere.dir, name)));
        expect(merged.stdout).not.toContain(project.dir);
      } finally {
        project.remove();
        elsewhere.remove();
      }
    },
    SLOW,
  );

  test(
    "merged shards give one run's line and outcome coverage and its timelines",
    async () => {
      const scratch = mkdtempSync(join(tmpdir(), "turnlens-merge-coverage-"));
      const examples = ["examples/review", "examples/triage", "examples/summarize"];
      const coverageOf = (name: string) => ["--coverage", "--coverage.reporter", "text", "--coverage.reportsDirectory", join(scratch, name)];
      try {
        const single = await apart([...examples, "--maxWorkers", "1", ...coverageOf("single"), "--timeline", join(scratch, "single-timelines")], ROOT);
        expect(single.code).toBe(0);
        for (const shard of ["1/2", "2/2"]) {
          const blob = join(scratch, "blobs", `blob-${shard.replace("/", "-")}.json`);
          const run = await apart(
            [...examples, "--shard", shard, ...coverageOf(`shard-${shard.replace("/", "-")}`), "--reporter", "blob", `--outputFile.blob=${blob}`],
            ROOT,
          );
          expect(run.code).toBe(0);
        }
        const merged = await turnlensCommand(["merge-reports", join(scratch, "blobs"), ...coverageOf("merged"), "--timeline", join(scratch, "merged-timelines")], ROOT);
        expect(merged.code).toBe(0);
        const fromCoverage = (text: string) => timeless(text.slice(text.indexOf("% Stmts") - 200));
        for (const output of [single.stdout, merged.stdout]) expect(output).toContain("% Stmts");
        expect(merged.stdout).toContain("outcome coverage · examples/review/workflow.ts");
        expect(fromCoverage(merged.stdout).replaceAll("merged", "<dir>")).toBe(fromCoverage(single.stdout).replaceAll("single", "<dir>"));
        const pages = (name: string) => readdirSync(join(scratch, name), { recursive: true }).map(String).sort();
        expect(pages("merged-timelines")).toEqual(pages("single-timelines"));
        for (const page of pages("single-timelines").filter((name) => name.endsWith(".md"))) {
          expect(timeless(readFileSync(join(scratch, "merged-timelines", page), "utf8"))).toBe(timeless(readFileSync(join(scratch, "single-timelines", page), "utf8")));
        }
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  test(
    "shards run with --mutate merge into the mutation table and score of one run; the threshold is the merged score's; a shard run without --mutate fails the merge",
    async () => {
      const demo = (name: string) => readFileSync(join(ROOT, "examples", "mutation", name), "utf8");
      const project = tempProject({
        "a/workflow.ts": demo("workflow.ts"),
        "a/workflow.test.ts": demo("workflow.test.ts"),
        "b/workflow.ts": demo("workflow.ts"),
        "b/workflow.test.ts": demo("workflow.test.ts"),
      });
      // Times and rates differ between any two runs.
      const steady = (text: string) => timeless(text).replace(/\([\d.]+\/s\)/g, "(<rate>)");
      try {
        const single = await apart(["a", "b", "--mutate"], project.dir);
        expect(single.code).toBe(0);
        expect(single.stdout).toContain("mutation score 14/16 noticed (87%)");
        for (const shard of ["1/2", "2/2"]) expect((await apart(["a", "b", "--mutate", "--shard", shard, "--reporter", "blob"], project.dir)).code).toBe(0);
        const merged = await turnlensCommand(["merge-reports"], project.dir);
        expect(merged.code).toBe(0);
        expect(steady(merged.stdout)).toBe(steady(single.stdout));
        const document = await turnlensCommand(["merge-reports", "--mutate=json"], project.dir);
        expect(JSON.parse(document.stdout)).toMatchObject({
          score: { noticed: 14, run: 16, notRun: 0 },
          files: [{ file: "a/workflow.test.ts" }, { file: "b/workflow.test.ts" }],
        });
        expect(document.stderr).toContain("4 passed, 0 failed");
        const below = await turnlensCommand(["merge-reports", "--mutate-threshold", "90"], project.dir);
        expect(below.code).toBe(1);
        expect(below.stderr).toContain("mutation score 87% is below --mutate-threshold 90%");
        // Shard 2 again, without --mutate: its file's mutants would be missing from the table.
        expect((await apart(["a", "b", "--shard", "2/2", "--reporter", "blob"], project.dir)).code).toBe(0);
        const partial = await turnlensCommand(["merge-reports"], project.dir);
        expect(partial.code).toBe(1);
        expect(partial.stdout).toContain("merge-reports: blob-2-2.json ran without --mutate: the mutation table would count the other shards' files only");
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  test("what merge-reports cannot merge is a usage error naming it", async () => {
    const project = tempProject({ "blobs/notes.json": "{}", "t/a.test.ts": testFile(0) });
    try {
      const empty = await turnlensCommand(["merge-reports", "t"], project.dir);
      expect(empty.code).toBe(2);
      expect(empty.stderr).toContain(`no blob reports in ${join(project.dir, "t")}: run each shard with --reporter blob`);
      const notBlob = await turnlensCommand(["merge-reports", "blobs"], project.dir);
      expect(notBlob.code).toBe(2);
      expect(notBlob.stderr).toContain(`merge-reports: ${join(project.dir, "blobs", "notes.json")} is not a blob report`);
      const flag = await turnlensCommand(["merge-reports", "blobs", "--shard", "1/2"], project.dir);
      expect(flag.code).toBe(2);
      expect(flag.stderr).toContain("--shard is not for merge-reports, which runs no test; it takes --reporter, --outputFile");
    } finally {
      project.remove();
    }
  });
});
