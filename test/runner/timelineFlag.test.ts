// `turnlens test --timeline DIR`: a self-contained HTML page per test that ran, an index of them,
// a usage error without a folder, and a folder that is not Turnlens's own refused.
import { describe, expect, test } from "bun:test";
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliTest } from "./cliTable.ts";
import { FIXTURES, ROOT, SLOW, tempProject, turnlens } from "./harness.ts";

/** The timeline-overwrites case: a project with its own index.html and a test, in a fresh folder. */
function projectWithSite(): { dir: string; remove(): void } {
  const project = tempProject({});
  cpSync(join(FIXTURES, "timelineOverwrites"), project.dir, { recursive: true });
  return project;
}

describe("--timeline", () => {
  test(
    "writes one page per test that passed or failed, each with a diagram per testWorkflow run, the same diagrams as Mermaid in a Markdown page beside it, and an index linking them",
    async () => {
      const out = tempProject({});
      try {
        const result = await turnlens([join(ROOT, "examples", "reminder"), "--timeline", out.dir]);
        expect(result.code).toBe(0);
        expect(result.stderr).toContain(`timelines: 3 tests in ${join(out.dir, "index.html")}`);
        expect(readdirSync(out.dir).sort()).toEqual([
          ".turnlens-timelines",
          "examples-reminder-workflow.test.ts--a-review-during-the-first-reminder-s-turn-ends-the-wait-its-timer-is-cancelled.html",
          "examples-reminder-workflow.test.ts--a-review-during-the-first-reminder-s-turn-ends-the-wait-its-timer-is-cancelled.md",
          "examples-reminder-workflow.test.ts--maxTimers-0-parks-at-the-first-reminder-to-test-the-parking.html",
          "examples-reminder-workflow.test.ts--maxTimers-0-parks-at-the-first-reminder-to-test-the-parking.md",
          "examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.html",
          "examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.md",
          "index.html",
        ]);
        // The Markdown page: what GitHub (or a pull request) draws, one Mermaid block per run.
        const markdown = readFileSync(
          join(out.dir, "examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.md"),
          "utf8",
        ).split("\n");
        expect(markdown.slice(0, 6)).toEqual([
          "# with no review, each two-day reminder fires at once on the virtual clock",
          "",
          "`examples/reminder/workflow.test.ts` · passed · 1 `testWorkflow` run (drawn in [examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.html](examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.html))",
          "",
          "## Run 1: reminder · completed",
          "",
        ]);
        expect(markdown.slice(6, 8)).toEqual(["```mermaid", "sequenceDiagram"]);
        expect(markdown.filter((line) => line === "```").length).toBe(1);
        const page = readFileSync(
          join(out.dir, "examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.html"),
          "utf8",
        );
        expect(page.match(/<svg /g)?.length).toBe(1);
        expect(page.match(/<g class="box /g)?.length).toBe(3);
        expect(page.match(/<g class="band">/g)?.length).toBe(3);
        expect(page).toContain("+6d on the virtual clock");
        const index = readFileSync(join(out.dir, "index.html"), "utf8");
        expect(index.match(/<a href="[^"]+\.html">/g)?.length).toBe(3);
        expect(index).toContain(
          '<td class="passed">passed</td><td><a href="examples-reminder-workflow.test.ts--maxTimers-0-parks-at-the-first-reminder-to-test-the-parking.html">',
        );
      } finally {
        out.remove();
      }
    },
    SLOW,
  );

  cliTest({
    name: "without a folder it is a usage error",
    args: [join(ROOT, "examples", "reminder"), "--timeline"],
    code: 2,
    stderr: { has: ["--timeline needs a folder to write the timelines to"] },
  });

  cliTest({
    name: "a folder holding files turnlens did not write is refused before the run, exit 2, and nothing in it changes",
    copy: "timelineOverwrites",
    args: [".", "--timeline", "."],
    stderr:
      "--timeline .: the folder holds files turnlens did not write (a.test.ts, index.html); give a new or empty folder, or one an earlier --timeline wrote (it holds .turnlens-timelines)\n",
    stdout: "",
    code: 2,
    check: (_result, dir) => {
      expect(readFileSync(join(dir, "index.html"), "utf8")).toBe("<h1>my site</h1>\n");
      expect(readdirSync(dir).sort()).toEqual(["a.test.ts", "index.html"]);
    },
  });

  test(
    "a symbolic link named index.html in the folder is never written through, whether the folder is refused or its own",
    async () => {
      const project = projectWithSite();
      try {
        writeFileSync(join(project.dir, "outside.txt"), "SECRET\n");
        mkdirSync(join(project.dir, "tdir"));
        symlinkSync(join(project.dir, "outside.txt"), join(project.dir, "tdir", "index.html"));
        const refused = await turnlens(["a.test.ts", "--timeline", "tdir"], project.dir);
        expect(refused.stderr).toBe(
          "--timeline tdir: the folder holds files turnlens did not write (index.html); give a new or empty folder, or one an earlier --timeline wrote (it holds .turnlens-timelines)\n",
        );
        expect(refused.code).toBe(2);
        // A folder an earlier --timeline made, where a link was planted since: the link is replaced, not followed.
        const first = await turnlens(["a.test.ts", "--timeline", "own"], project.dir);
        expect(first.code).toBe(0);
        rmSync(join(project.dir, "own", "a.test.ts--x.html"));
        symlinkSync(join(project.dir, "outside.txt"), join(project.dir, "own", "a.test.ts--x.html"));
        const again = await turnlens(["a.test.ts", "--timeline", "own"], project.dir);
        expect(again.stderr).toBe("timelines: 1 tests in own/index.html\n");
        expect(again.code).toBe(0);
        expect(readFileSync(join(project.dir, "outside.txt"), "utf8")).toBe("SECRET\n");
        expect(lstatSync(join(project.dir, "own", "a.test.ts--x.html")).isFile()).toBe(true);
        expect(readdirSync(join(project.dir, "own")).sort()).toEqual([".turnlens-timelines", "a.test.ts--x.html", "a.test.ts--x.md", "index.html"]);
      } finally {
        project.remove();
      }
    },
    SLOW,
  );

  cliTest({
    name: "an existing file given as the folder is a usage error that names it, with no stack, and the file is kept",
    copy: "timelineOverwrites",
    setup: (dir) => writeFileSync(join(dir, "afile"), "hi\n"),
    args: ["a.test.ts", "--timeline", "afile"],
    stderr: "--timeline afile: afile is a file, not a folder; give a folder for the timelines\n",
    code: 2,
    check: (_result, dir) => expect(readFileSync(join(dir, "afile"), "utf8")).toBe("hi\n"),
  });
});
