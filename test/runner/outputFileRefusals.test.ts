// A report file never replaces the project's code or settings: `--outputFile` naming a test file, a
// source file, the config file or package.json is a usage error, and the file is kept.
import { describe, expect } from "bun:test";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests, DIR } from "./cliTable.ts";

const TEST_TEXT = 'import { expect, test } from "bun:test";\ntest("x", () => { expect(1).toBe(1); });\n';

describe("--outputFile", () => {
  cliTests([
    {
      name: "naming the test file itself is a usage error, and the test file is kept",
      copy: "timelineOverwrites",
      args: ["a.test.ts", "--reporter", "json", "--outputFile", "a.test.ts"],
      stderr: "--outputFile a.test.ts: the json report would replace a test file; give it a file of its own, such as report.json\n",
      stdout: "",
      code: 2,
      check: (_result, dir) => expect(readFileSync(join(dir, "a.test.ts"), "utf8")).toBe(TEST_TEXT),
    },
    {
      name: "a source file, a link to the test file and package.json are refused too, each said as what it is",
      copy: "timelineOverwrites",
      setup: (dir) => {
        writeFileSync(join(dir, "flow.ts"), "export const x = 1;\n");
        writeFileSync(join(dir, "package.json"), "{}\n");
        symlinkSync(join(dir, "a.test.ts"), join(dir, "report.xml"));
      },
      steps: [
        {
          args: ["a.test.ts", "--reporter", "junit", "--outputFile", "flow.ts"],
          code: 2,
          stderr:
            "--outputFile flow.ts: the junit report would replace a source file (a report is never written under a .ts or .js name); give it a file of its own, such as report.xml\n",
        },
        {
          args: ["a.test.ts", "--reporter", "junit", "--outputFile.junit=report.xml"],
          code: 2,
          stderr: "--outputFile report.xml: the junit report would replace a test file; give it a file of its own, such as report.xml\n",
        },
        {
          args: ["a.test.ts", "--reporter", "json", "--outputFile", "package.json"],
          code: 2,
          stderr: "--outputFile package.json: the json report would replace a project settings file; give it a file of its own, such as report.json\n",
          check: (_result, dir) => {
            expect(readFileSync(join(dir, "flow.ts"), "utf8")).toBe("export const x = 1;\n");
            expect(readFileSync(join(dir, "a.test.ts"), "utf8")).toBe(TEST_TEXT);
            expect(readFileSync(join(dir, "package.json"), "utf8")).toBe("{}\n");
          },
        },
      ],
    },
    {
      name: "a file of its own is written as before",
      copy: "timelineOverwrites",
      args: ["a.test.ts", "--reporter", "json", "--outputFile", "report.json"],
      code: 0,
      stderr: { has: [`json report written to ${DIR}/report.json\n`] },
      check: (_result, dir) => expect(JSON.parse(readFileSync(join(dir, "report.json"), "utf8")).numPassedTests).toBe(1),
    },
  ]);
});
