// `turnlens test --coverage`: after the run, the outcomes each workflow's agents were given and not
// given, each call's tests and outcomes, and the calls no test reached; `--coverage=json` as one
// document on stdout. The command runs as a child process on examples/.
import { describe, expect } from "bun:test";
import { cliTests } from "./cliTable.ts";

const REVIEW_TABLE = [
  "outcome coverage · examples/review/workflow.ts",
  "  agent       opened   given                           not given",
  "  verifier-1  line 27  answered, cancelled             unanswered, blocked, timed-out, failed",
  "  verifier-2  line 27  answered, timed-out, cancelled  unanswered, blocked, failed",
  "  verifier-3  line 27  answered, failed                unanswered, blocked, timed-out, cancelled",
  "  lead        line 43  answered                        unanswered, blocked, timed-out, failed, cancelled",
  "  line 27  wf.agents.open  in 4 tests: answered 8, timed out 1, failed 1, cancelled 2",
  "  line 28  verifier.run    in 4 tests: answered 8, timed out 1, failed 1, cancelled 2",
  "  line 43  wf.agents.open  in 3 tests: answered 6",
  "  line 45  lead.run        in 3 tests: answered 3",
  "  line 53  lead.run        in 3 tests: answered 3",
  "  every call site was reached",
];

describe("turnlens test --coverage", () => {
  cliTests([
    {
      name: "prints the review example's table after the count line",
      args: ["--coverage", "examples/review"],
      code: 0,
      check: (result) => {
        const lines = result.stdout.trimEnd().split("\n");
        const start = lines.indexOf("4 passed, 0 failed");
        expect(start).toBeGreaterThan(0);
        expect(lines.slice(start + 1)).toEqual(["", ...REVIEW_TABLE]);
      },
    },
    {
      name: "names the calls no test reached",
      // Only the test where a verifier crashes: the lead is never opened.
      args: ["--coverage", "-t", "crashed verifier", "examples/review"],
      code: 0,
      check: (result) =>
        expect(result.stdout.slice(result.stdout.indexOf("outcome coverage")).trimEnd().split("\n")).toEqual([
          "outcome coverage · examples/review/workflow.ts",
          "  agent       opened   given      not given",
          "  verifier-1  line 27  cancelled  answered, unanswered, blocked, timed-out, failed",
          "  verifier-2  line 27  cancelled  answered, unanswered, blocked, timed-out, failed",
          "  verifier-3  line 27  failed     answered, unanswered, blocked, timed-out, cancelled",
          "  line 27  wf.agents.open  in 1 test: failed 1, cancelled 2",
          "  line 28  verifier.run    in 1 test: failed 1, cancelled 2",
          "  no test reached: line 43 wf.agents.open, line 45 lead.run, line 53 lead.run",
        ]),
    },
    {
      name: "--coverage=json makes stdout one document; the test reporter writes to stderr",
      args: ["--coverage=json", "examples/review"],
      code: 0,
      stderr: { has: ["4 passed, 0 failed"] },
      check: (result) => {
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
    },
    {
      name: "beside --reporter json the table goes to stderr, so stdout stays the report",
      args: ["--coverage", "--reporter", "json", "examples/review"],
      code: 0,
      stderr: { has: [REVIEW_TABLE.join("\n")] },
      check: (result) => expect((JSON.parse(result.stdout) as { passed: number }).passed).toBe(4),
    },
    {
      name: "--coverage with another value is a usage error",
      args: ["--coverage=xml", "examples/review"],
      code: 2,
      stderr: "--coverage takes no value, or =json: =xml is neither\n",
    },
  ]);
});
