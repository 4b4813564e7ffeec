// A report file never replaces the project's code or settings: `--outputFile` naming a test file, a
// source file, the config file or package.json is a usage error, and the file is kept.
import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, SLOW, tempProject, turnlens } from "./harness.ts";

const TEST_TEXT = 'import { expect, test } from "bun:test";\ntest("x", () => { expect(1).toBe(1); });\n';

/** The timeline-overwrites case's project (a test file beside an index.html), in a fresh folder. */
function project(): { dir: string; remove(): void } {
  const made = tempProject({});
  cpSync(join(FIXTURES, "timelineOverwrites"), made.dir, { recursive: true });
  return made;
}

describe("--outputFile", () => {
  test(
    "naming the test file itself is a usage error, and the test file is kept",
    async () => {
      const made = project();
      try {
        const result = await turnlens(["a.test.ts", "--reporter", "json", "--outputFile", "a.test.ts"], made.dir);
        expect(result.stderr).toBe("--outputFile a.test.ts: the json report would replace a test file; give it a file of its own, such as report.json\n");
        expect(result.stdout).toBe("");
        expect(result.code).toBe(2);
        expect(readFileSync(join(made.dir, "a.test.ts"), "utf8")).toBe(TEST_TEXT);
      } finally {
        made.remove();
      }
    },
    SLOW,
  );

  test(
    "a source file, a link to the test file and package.json are refused too, each said as what it is",
    async () => {
      const made = project();
      try {
        writeFileSync(join(made.dir, "flow.ts"), "export const x = 1;\n");
        writeFileSync(join(made.dir, "package.json"), "{}\n");
        symlinkSync(join(made.dir, "a.test.ts"), join(made.dir, "report.xml"));
        const source = await turnlens(["a.test.ts", "--reporter", "junit", "--outputFile", "flow.ts"], made.dir);
        expect(source.stderr).toBe(
          "--outputFile flow.ts: the junit report would replace a source file (a report is never written under a .ts or .js name); give it a file of its own, such as report.xml\n",
        );
        const link = await turnlens(["a.test.ts", "--reporter", "junit", "--outputFile.junit=report.xml"], made.dir);
        expect(link.stderr).toBe("--outputFile report.xml: the junit report would replace a test file; give it a file of its own, such as report.xml\n");
        const settings = await turnlens(["a.test.ts", "--reporter", "json", "--outputFile", "package.json"], made.dir);
        expect(settings.stderr).toBe(
          "--outputFile package.json: the json report would replace a project settings file; give it a file of its own, such as report.json\n",
        );
        expect([source.code, link.code, settings.code]).toEqual([2, 2, 2]);
        expect(readFileSync(join(made.dir, "flow.ts"), "utf8")).toBe("export const x = 1;\n");
        expect(readFileSync(join(made.dir, "a.test.ts"), "utf8")).toBe(TEST_TEXT);
        expect(readFileSync(join(made.dir, "package.json"), "utf8")).toBe("{}\n");
      } finally {
        made.remove();
      }
    },
    SLOW,
  );

  test(
    "a file of its own is written as before",
    async () => {
      const made = project();
      try {
        const result = await turnlens(["a.test.ts", "--reporter", "json", "--outputFile", "report.json"], made.dir);
        expect(result.code).toBe(0);
        expect(result.stderr).toContain(`json report written to ${join(made.dir, "report.json")}\n`);
        expect(JSON.parse(readFileSync(join(made.dir, "report.json"), "utf8")).numPassedTests).toBe(1);
      } finally {
        made.remove();
      }
    },
    SLOW,
  );
});
