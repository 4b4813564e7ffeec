// `turnlens test --coverage`: after the run, the outcomes each workflow's agents were given and not
// given, each call's tests and outcomes, and the calls no test reached; `--coverage=json` as one
// document on stdout. The command runs as a child process on examples/.
import { describe, expect, test } from "bun:test";
import { SLOW, turnlens } from "./harness.ts";

const REVIEW_TABLE = [
  "outcome coverage · examples/review/workflow.ts",
  "  agent       opened   given                           not given",
  "  verifier-1  line 27  answered, cancelled             unanswered, blocked, timed-out, failed",
  "  verifier-2  line 27  answered, timed-out, cancelled  unanswered, blocked, failed",
  "  verifier-3  line 27  answered, failed                unanswered, blocked, timed-out, cancelled",
  "  lead        line 43  answered                        unanswered, blocked, timed-out, failed, cancelled",
  "  line 27  wf.agents.open  4 tests · answered 8, timed-out 1, failed 1, cancelled 2",
  "  line 28  verifier.run    4 tests · answered 8, timed-out 1, failed 1, cancelled 2",
  "  line 43  wf.agents.open  3 tests · answered 6",
  "  line 45  lead.run        3 tests · answered 3",
  "  line 53  lead.run        3 tests · answered 3",
  "  every call site was reached",
];

describe("turnlens test --coverage", () => {
  test(
    "prints the review example's table after the count line",
    async () => {
      const result = await turnlens(["--coverage", "examples/review"]);
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split("\n");
      const start = lines.indexOf("4 passed, 0 failed");
      expect(start).toBeGreaterThan(0);
      expect(lines.slice(start + 1)).toEqual(["", ...REVIEW_TABLE]);
    },
    SLOW,
  );

  test(
    "names the calls no test reached",
    async () => {
      // Only the test where a verifier crashes: the lead is never opened.
      const result = await turnlens(["--coverage", "-t", "crashed verifier", "examples/review"]);
      expect(result.code).toBe(0);
      const table = result.stdout.slice(result.stdout.indexOf("outcome coverage")).trimEnd().split("\n");
      expect(table).toEqual([
        "outcome coverage · examples/review/workflow.ts",
        "  agent       opened   given      not given",
        "  verifier-1  line 27  cancelled  answered, unanswered, blocked, timed-out, failed",
        "  verifier-2  line 27  cancelled  answered, unanswered, blocked, timed-out, failed",
        "  verifier-3  line 27  failed     answered, unanswered, blocked, timed-out, cancelled",
        "  line 27  wf.agents.open  1 test · failed 1, cancelled 2",
        "  line 28  verifier.run    1 test · failed 1, cancelled 2",
        "  no test reached: line 43 wf.agents.open, line 45 lead.run, line 53 lead.run",
      ]);
    },
    SLOW,
  );

  test(
    "--coverage=json makes stdout one document; the test reporter writes to stderr",
    async () => {
      const result = await turnlens(["--coverage=json", "examples/review"]);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain("4 passed, 0 failed");
      const document = JSON.parse(result.stdout) as {
        outcomeKinds: string[];
        workflows: Array<{
          file: string;
          agents: unknown[];
          calls: Array<{ line: number; callee: string; outcomes: Record<string, number>; tests: Array<{ file: string; test: string }> }>;
          unreached: unknown[];
        }>;
      };
      expect(document.outcomeKinds).toEqual(["answered", "unanswered", "blocked", "timed-out", "failed", "cancelled"]);
      const [review] = document.workflows;
      expect(review?.file).toBe("examples/review/workflow.ts");
      expect(review?.agents[3]).toEqual({
        key: "lead",
        openedAt: { file: "examples/review/workflow.ts", line: 43, column: 34 },
        given: ["answered"],
        notGiven: ["unanswered", "blocked", "timed-out", "failed", "cancelled"],
        tests: 3,
      });
      const run = review?.calls.find((call) => call.line === 28);
      expect(run?.callee).toBe("verifier.run");
      expect(run?.outcomes).toEqual({ answered: 8, "timed-out": 1, failed: 1, cancelled: 2 });
      expect(run?.tests.map((each) => each.file)).toEqual(Array(4).fill("examples/review/workflow.test.ts"));
      expect(review?.unreached).toEqual([]);
    },
    SLOW,
  );

  test(
    "beside --reporter json the table goes to stderr, so stdout stays the report",
    async () => {
      const result = await turnlens(["--coverage", "--reporter", "json", "examples/review"]);
      expect(result.code).toBe(0);
      expect((JSON.parse(result.stdout) as { passed: number }).passed).toBe(4);
      expect(result.stderr).toContain(REVIEW_TABLE.join("\n"));
    },
    SLOW,
  );

  test(
    "--coverage with another value is a usage error",
    async () => {
      const result = await turnlens(["--coverage=xml", "examples/review"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe("--coverage takes no value, or =json\n");
    },
    SLOW,
  );
});
