// Which files a folder search finds when the project holds symlinks: never a file outside the
// project, and each real file once, under the path where it really is.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { SLOW, tempProject, turnlens } from "./harness.ts";

const PASSING = 'import { test } from "bun:test";\ntest("runs", () => {});\n';
const PROJECT = JSON.stringify({ name: "linked", turnlens: {} });

const removals: Array<() => void> = [];
afterEach(() => {
  for (const remove of removals.splice(0)) remove();
});

function project(files: Record<string, string>): string {
  const made = tempProject({ "package.json": PROJECT, ...files });
  removals.push(made.remove);
  return made.dir;
}

/** The files a json run reported, and its exit code. */
async function ranFiles(cwd: string, args: string[] = []): Promise<{ code: number | null; files: string[] }> {
  const result = await turnlens([...args, "--reporter", "json"], cwd);
  const report = JSON.parse(result.stdout) as { files: Array<{ file: string }> };
  return { code: result.code, files: report.files.map((file) => file.file) };
}

describe("symlinks in a folder search", () => {
  test(
    "a symlink out of the project is not followed, to a folder or to a file",
    async () => {
      const outside = project({ "elsewhere.test.ts": PASSING, "single.test.ts": PASSING });
      const dir = project({ "tests/own.test.ts": PASSING });
      symlinkSync(outside, join(dir, "tests", "outside"), "dir");
      symlinkSync(join(outside, "single.test.ts"), join(dir, "tests", "single.test.ts"), "file");
      expect(await ranFiles(dir)).toEqual({ code: 0, files: [join(dir, "tests", "own.test.ts")] });
    },
    SLOW,
  );

  test(
    "a symlink loop runs each file once, under its real path",
    async () => {
      const dir = project({ "tests/own.test.ts": PASSING });
      symlinkSync(dir, join(dir, "tests", "loop"), "dir");
      symlinkSync(join(dir, "tests"), join(dir, "alias"), "dir");
      expect(await ranFiles(dir)).toEqual({ code: 0, files: [join(dir, "tests", "own.test.ts")] });
    },
    SLOW,
  );

  test(
    "a symlink into node_modules inside the project finds nothing there",
    async () => {
      const dir = project({ "tests/own.test.ts": PASSING, "node_modules/pkg/theirs.test.ts": PASSING });
      symlinkSync(join(dir, "node_modules", "pkg"), join(dir, "tests", "pkg"), "dir");
      expect(await ranFiles(dir)).toEqual({ code: 0, files: [join(dir, "tests", "own.test.ts")] });
    },
    SLOW,
  );

  test(
    "a file named on the command line runs even through a symlink out of the project",
    async () => {
      const outside = project({ "single.test.ts": PASSING });
      const dir = project({ "tests/own.test.ts": PASSING });
      mkdirSync(join(dir, "named"));
      symlinkSync(join(outside, "single.test.ts"), join(dir, "named", "single.test.ts"), "file");
      expect(await ranFiles(dir, ["named/single.test.ts"])).toEqual({ code: 0, files: [join(dir, "named", "single.test.ts")] });
    },
    SLOW,
  );
});
