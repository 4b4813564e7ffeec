// `turnlens test --timeline DIR`: a self-contained HTML page per test that ran, an index of them,
// and a usage error without a folder.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, SLOW, tempProject, turnlens } from "./harness.ts";

describe("--timeline", () => {
  test(
    "writes one page per test that passed or failed, each with a diagram per testWorkflow run, and an index linking them",
    async () => {
      const out = tempProject({});
      try {
        const result = await turnlens([join(ROOT, "examples", "reminder"), "--timeline", out.dir]);
        expect(result.code).toBe(0);
        expect(result.stderr).toContain(`timelines: 3 tests in ${join(out.dir, "index.html")}`);
        expect(readdirSync(out.dir).sort()).toEqual([
          "examples-reminder-workflow.test.ts--a-review-during-the-first-reminder-s-turn-ends-the-wait-its-timer-is-cancelled.html",
          "examples-reminder-workflow.test.ts--maxTimers-0-parks-at-the-first-reminder-to-test-the-parking.html",
          "examples-reminder-workflow.test.ts--with-no-review-each-two-day-reminder-fires-at-once-on-the-virtual-clock.html",
          "index.html",
        ]);
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

  test(
    "without a folder it is a usage error",
    async () => {
      const result = await turnlens([join(ROOT, "examples", "reminder"), "--timeline"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--timeline needs a folder to write the timelines to");
    },
    SLOW,
  );
});
