// The words of a turn hint, as a table: outcome × count × passing/failing test → text. ✗ marks a
// failure only; a scripted `noAnswer` reads "(as scripted)"; agents read in the order of their names.
import { expect, test } from "bun:test";
import type { TurnTrace } from "../../core/testing/trace.ts";
import { turnHint } from "../../server/features/hintLabels.ts";
import type { MetOf } from "../../server/scriptViews.ts";

interface Call {
  agent?: string;
  n?: number;
  outcome?: string;
  nudge?: boolean;
  test?: string;
  passed?: boolean;
  scripted?: boolean;
}

function met(call: Call): MetOf<"turn"> {
  const turn: TurnTrace = { agent: call.agent ?? "reader", n: call.n ?? 1, nudge: call.nudge ?? false, prompt: "p", outcome: call.outcome ?? "answered" };
  return { kind: "turn", turn, test: call.test ?? "t", passed: call.passed ?? true, scripted: call.scripted ?? false };
}

const rows: Array<[string, Call[], string]> = [
  ["one answered turn", [{}], "reader · turn 1 answered"],
  ["one answered turn of a failing test", [{ passed: false }], "reader · turn 1 answered"],
  [
    "a scripted silence in a passing test, nudged",
    [
      { outcome: "unanswered", scripted: true },
      { outcome: "unanswered", nudge: true, scripted: true },
    ],
    "reader · turn 1 no answer after a nudge (as scripted)",
  ],
  ["a scripted silence in a failing test", [{ outcome: "unanswered", scripted: true, passed: false }], "reader · turn 1 no answer (as scripted)"],
  ["a cancelled turn in a failing test", [{ agent: "writer", outcome: "cancelled", passed: false }], "writer · turn 1 ✗ cancelled"],
  ["a cancelled turn in a passing test (rejects.toThrow)", [{ agent: "writer", outcome: "cancelled" }], "writer · turn 1 cancelled"],
  ["a timed-out turn in a failing test", [{ outcome: "timed-out", passed: false }], "reader · turn 1 ✗ timed out"],
  ["three answered turns of one test", [{ n: 1 }, { n: 2 }, { n: 3 }], "reader · turns 1–3 answered"],
  [
    "two tests, answered then scripted silence",
    [
      { agent: "lead", n: 1, test: "a" },
      { agent: "lead", n: 2, test: "a", outcome: "unanswered", scripted: true },
      { agent: "lead", n: 1, test: "b" },
    ],
    "lead · turns 1–2 in 2 tests: answered, then no answer (as scripted)",
  ],
  ["one test running the workflow twice", [{ n: 1 }, { n: 1 }], "reader · turn 1 in 2 runs: answered"],
  ["agents by name, whatever order they ran in", [{ agent: "writer" }, { agent: "checker" }], "checker, writer · turn 1 answered"],
  ["more than three agents", [{ agent: "d" }, { agent: "c" }, { agent: "b" }, { agent: "a" }], "a, b, c, … · turn 1 answered"],
];

for (const [name, calls, text] of rows) {
  test(`a turn hint reads as what happened: ${name}`, () => {
    expect(turnHint(calls.map(met))).toBe(text);
  });
}

test("the agents' order does not depend on the order the runs finished in", () => {
  const one = [met({ agent: "writer" }), met({ agent: "checker" })];
  expect(turnHint(one)).toBe(turnHint([...one].reverse()));
});
