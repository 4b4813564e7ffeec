// Snapshots as Vitest writes them, through the CLI on copies of the snapshot fixture in temporary
// folders: the same .snap file, inline snapshots and file snapshot as real `vitest run` writes,
// nothing written under CI, `-u` rewriting and removing the obsolete, the report's failures.
import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURES, ROOT, runNode, turnlens } from "./harness.ts";

const FIXTURE = join(FIXTURES, "vitestParity", "snapshots.test.ts");
const SNAP = join(FIXTURES, "vitestParity", "__snapshots__");
const MINUTES = 5 * 60_000;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder holding the fixture (its inline snapshots emptied when `fresh`), and its committed snapshots unless `fresh`. */
function project(fresh: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "turnlens-snapshots-"));
  folders.push(dir);
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  const source = readFileSync(FIXTURE, "utf8");
  writeFileSync(join(dir, "snapshots.test.ts"), fresh ? emptied(source) : source);
  if (!fresh) cpSync(SNAP, join(dir, "__snapshots__"), { recursive: true });
  return dir;
}

/** The source with every inline snapshot's argument taken out, as a test is first written. */
function emptied(source: string): string {
  return source.replace(/(toMatchInlineSnapshot|toThrowErrorMatchingInlineSnapshot)\(`[^`]*`\)/g, "$1()");
}

function read(dir: string, path: string): string {
  return readFileSync(join(dir, path), "utf8");
}

const NOT_CI = { CI: undefined };

describe("the files a first run writes", () => {
  test(
    "are byte for byte those real vitest run writes: the .snap file, the inline snapshots in the source, the file snapshot",
    async () => {
      const ours = project(true);
      const theirs = project(true);
      mkdirSync(join(theirs, "node_modules"));
      symlinkSync(join(ROOT, "node_modules", "vitest"), join(theirs, "node_modules", "vitest"), "dir");
      const run = await turnlens(["snapshots.test.ts"], ours, NOT_CI);
      const vitest = await runNode([join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "snapshots.test.ts"], theirs, { CI: undefined, NO_COLOR: "1" }, MINUTES);
      expect(vitest.code).toBe(0);
      expect(run.code).toBe(0);
      expect(read(ours, "__snapshots__/snapshots.test.ts.snap")).toBe(read(theirs, "__snapshots__/snapshots.test.ts.snap"));
      expect(read(ours, "snapshots.test.ts")).toBe(read(theirs, "snapshots.test.ts"));
      expect(read(ours, "__snapshots__/transcript.txt")).toBe("the transcript\nin a file of its own\n");
      expect(read(ours, "__snapshots__/transcript.txt")).toBe(read(theirs, "__snapshots__/transcript.txt"));
      expect(run.stdout).toContain("Snapshots  12 written\n");
      expect(run.lastLine).toBe("8 passed, 0 failed");
    },
    MINUTES,
  );

  test("write the inline snapshots where the source has them, indented as Vitest indents them", async () => {
    const dir = project(true);
    const run = await turnlens(["snapshots.test.ts"], dir, NOT_CI);
    expect(run.code).toBe(0);
    expect(read(dir, "snapshots.test.ts")).toBe(readFileSync(FIXTURE, "utf8").replace('"changed": "now"', '"changed": "later"'));
  });
});

describe("under CI", () => {
  test("nothing is written: a missing snapshot fails, and the source and folder stay as they were", async () => {
    const dir = project(true);
    const before = read(dir, "snapshots.test.ts");
    const run = await turnlens(["snapshots.test.ts"], dir, { CI: "true" });
    expect(run.code).toBe(1);
    expect(existsSync(join(dir, "__snapshots__"))).toBe(false);
    expect(read(dir, "snapshots.test.ts")).toBe(before);
    expect(run.stdout).toContain("Snapshots  8 failed\n");
    expect(run.lastLine).toBe("0 passed, 8 failed");
  });

  test("the committed snapshots pass and the changed or missing ones fail, with the snapshot's key and diff", async () => {
    const dir = project(false);
    const run = await turnlens(["snapshots.test.ts"], dir, { CI: "true" });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '    Snapshot `a run > a value changed since the snapshot fails 1` mismatched\n\n    - Expected\n    + Received\n\n      {\n    -   "answer": "changed",\n    +   "answer": "different",\n      }\n',
    );
    expect(run.stdout).toContain("Snapshot `a snapshot missing under CI fails 1` mismatched");
    expect(run.stdout).toContain("Snapshots  3 failed\n");
    expect(run.lastLine).toBe("5 passed, 3 failed");
    expect(read(dir, "__snapshots__/snapshots.test.ts.snap")).toBe(readFileSync(join(SNAP, "snapshots.test.ts.snap"), "utf8"));
  });

  test("an obsolete snapshot fails the file, as in Vitest, and stays", async () => {
    const dir = project(false);
    const snap = join(dir, "__snapshots__", "snapshots.test.ts.snap");
    writeFileSync(snap, `${readFileSync(snap, "utf8")}\nexports[\`a test that is gone 1\`] = \`"old"\`;\n`);
    const run = await turnlens(["snapshots.test.ts"], dir, { CI: "true" });
    expect(run.stdout).toContain("FAIL obsolete snapshots\n");
    expect(run.stdout).toContain("Obsolete snapshots found when no snapshot update is expected.\n    · a test that is gone 1\n");
    expect(run.stdout).toContain("Snapshots  3 failed\n           1 obsolete\n           ↳ snapshots.test.ts\n             · a test that is gone 1\n");
    expect(read(dir, "__snapshots__/snapshots.test.ts.snap")).toContain("a test that is gone 1");
  });
});

describe("-u", () => {
  test("rewrites the snapshots that differ, writes the missing one and removes the obsolete, and the next CI run passes", async () => {
    const dir = project(false);
    const snap = join(dir, "__snapshots__", "snapshots.test.ts.snap");
    writeFileSync(snap, `${readFileSync(snap, "utf8")}\nexports[\`a test that is gone 1\`] = \`"old"\`;\n`);
    writeFileSync(join(dir, "__snapshots__", "transcript.txt"), "an older transcript\n");
    const run = await turnlens(["snapshots.test.ts", "-u"], dir, NOT_CI);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Snapshots  1 written\n           3 updated\n           1 removed\n           ↳ snapshots.test.ts\n             · a test that is gone 1\n",
    );
    const written = read(dir, "__snapshots__/snapshots.test.ts.snap");
    expect(written).not.toContain("a test that is gone");
    expect(written).toContain('exports[`a snapshot missing under CI fails 1`] = `"never written"`;');
    expect(written).toContain('"answer": "different",');
    expect(read(dir, "snapshots.test.ts")).toContain('"changed": "later",');
    expect(read(dir, "__snapshots__/transcript.txt")).toBe("the transcript\nin a file of its own\n");
    const again = await turnlens(["snapshots.test.ts"], dir, { CI: "true" });
    expect(again.lastLine).toBe("8 passed, 0 failed");
  });

  test("is --update too, and takes =false", async () => {
    const dir = project(false);
    const run = await turnlens(["snapshots.test.ts", "--update=false"], dir, { CI: "true" });
    expect(run.lastLine).toBe("5 passed, 3 failed");
    const updated = await turnlens(["snapshots.test.ts", "--update"], dir, { CI: "true" });
    expect(updated.lastLine).toBe("8 passed, 0 failed");
  });
});

describe("the json report", () => {
  test("carries each failed snapshot's kind, file and key, an inline one's site, and the counts", async () => {
    const dir = project(false);
    const run = await turnlens(["snapshots.test.ts", "--reporter", "json"], dir, { CI: "true" });
    const report = JSON.parse(run.stdout) as { files: Array<{ snapshots?: Record<string, unknown> & { failures: Array<Record<string, unknown>> } }> };
    const snapshots = report.files[0]!.snapshots!;
    expect({ ...snapshots, failures: snapshots.failures.map(({ kind, file, key, site, testId }) => ({ kind, file, key, site, testId })) }).toEqual({
      snapshotFile: join(dir, "__snapshots__", "snapshots.test.ts.snap"),
      update: "none",
      added: 0,
      matched: 9,
      unmatched: 3,
      updated: 0,
      unchecked: 0,
      uncheckedKeys: [],
      fileDeleted: false,
      failures: [
        {
          kind: "toMatchSnapshot",
          file: join(dir, "__snapshots__", "snapshots.test.ts.snap"),
          key: "a run > a value changed since the snapshot fails 1",
          site: undefined,
          testId: "a run › a value changed since the snapshot fails",
        },
        {
          kind: "toMatchInlineSnapshot",
          file: join(dir, "snapshots.test.ts"),
          key: "an inline snapshot that differs fails 1",
          site: { file: join(dir, "snapshots.test.ts"), line: 38, column: 32 },
          testId: "an inline snapshot that differs fails",
        },
        {
          kind: "toMatchSnapshot",
          file: join(dir, "__snapshots__", "snapshots.test.ts.snap"),
          key: "a snapshot missing under CI fails 1",
          site: undefined,
          testId: "a snapshot missing under CI fails",
        },
      ],
    });
    expect(snapshots.failures[1]).toMatchObject({ expected: '{\n  "changed": "now",\n}', actual: '{\n  "changed": "later",\n}' });
  });
});
