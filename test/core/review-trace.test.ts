import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { problemsOf, traceOfRun, traceOfTurn } from "turnlens/trace";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import review, { DECISION, VERDICT } from "../../examples/review/workflow";
import { mistake } from "./workflows";

// The review example's run, traced: each turn back to the entry line below that met it.
const FILE = fileURLToPath(import.meta.url);
const LINES = readFileSync(FILE, "utf8").split("\n");

function siteOf(marker: string, call = "answer(") {
  const index = LINES.findIndex((line) => line.includes(`// @${marker}`));
  if (index < 0) throw new Error(`no line is marked @${marker}`);
  return { file: FILE, line: index + 1, column: LINES[index]!.indexOf(call) + 1 };
}

const args = { diff: "main..feature" };
const agents = () => ({
  "verifier-*": answer(VERDICT, { ok: true, findings: [] }), // @verifiers
  "verifier-2": answer(VERDICT, { ok: false, findings: ["token in a log line"] }), // @verifier-2
  lead: [
    answer(DECISION, { approve: false, summary: "fix the leak" }), // @lead-decide
    answer("Please drop the token from the log."), // @lead-comment
  ],
});

describe("the review example, traced", () => {
  test("each turn names the entry that met it, at the line and column of its answer( call", async () => {
    const run = await testWorkflow(review, { args, agents: agents() });
    expect(run.value).toEqual({ approve: false, summary: "fix the leak", comment: "Please drop the token from the log." });
    const matchOf = (key: string, index = 0) => traceOfTurn(run.turnsOf(key)[index]!)?.match;
    for (const key of ["verifier-1", "verifier-3"]) {
      expect(matchOf(key)).toEqual({ option: "agents", key: "verifier-*", pattern: "verifier-*", index: null, nudge: false, site: siteOf("verifiers") });
    }
    expect(matchOf("verifier-2")).toEqual({ option: "agents", key: "verifier-2", index: null, nudge: false, site: siteOf("verifier-2") });
    expect(matchOf("lead", 0)).toEqual({ option: "agents", key: "lead", index: 0, nudge: false, site: siteOf("lead-decide") });
    expect(matchOf("lead", 1)).toEqual({ option: "agents", key: "lead", index: 1, nudge: false, site: siteOf("lead-comment") });
  });

  test("the run's trace lists every entry where it was written, and every turn with its answer", async () => {
    const run = await testWorkflow(review, { args, agents: agents() });
    const trace = traceOfRun(run)!;
    expect(trace.workflow).toBe("review");
    expect(trace.entries.map(({ key, index, kind, site }) => ({ key, index, kind, line: site?.line }))).toEqual([
      { key: "verifier-*", index: null, kind: "answer", line: siteOf("verifiers").line },
      { key: "verifier-2", index: null, kind: "answer", line: siteOf("verifier-2").line },
      { key: "lead", index: 0, kind: "answer", line: siteOf("lead-decide").line },
      { key: "lead", index: 1, kind: "answer", line: siteOf("lead-comment").line },
    ]);
    const byAgent = Object.fromEntries(trace.turns.filter((turn) => !turn.agent.startsWith("lead")).map((turn) => [turn.agent, turn.answer]));
    expect(byAgent).toEqual({
      "verifier-1": { ok: true, findings: [] },
      "verifier-2": { ok: false, findings: ["token in a log line"] },
      "verifier-3": { ok: true, findings: [] },
    });
    expect(trace.turns.filter((turn) => turn.agent === "lead").map((turn) => turn.label)).toEqual(["decide", "comment"]);
    expect(trace.ending).toEqual({ kind: "completed" });
  });

  test("a crashed verifier: the others' turns cancelled, traced to the pattern's entry", async () => {
    const run = await testWorkflow(review, {
      args,
      agents: {
        "verifier-*": noAnswer.hang(), // @hang
        "verifier-3": noAnswer.failed("harness crashed"), // @crash
      },
    });
    expect(run.ending).toMatchObject({ kind: "failed", reason: "verifier-3 failed: harness crashed" });
    const hung = traceOfTurn(run.turnsOf("verifier-1")[0]!)!;
    expect(hung).toMatchObject({ outcome: "cancelled", reason: "a parallel item failed: verifier-3 failed: harness crashed" });
    expect(hung.match).toMatchObject({ key: "verifier-*", pattern: "verifier-*", site: { file: FILE, line: siteOf("hang", "noAnswer.").line } });
    expect(traceOfTurn(run.turnsOf("verifier-3")[0]!)).toMatchObject({ outcome: "failed", reason: "harness crashed", match: { key: "verifier-3" } });
  });

  test("a lead list walked short: the entry never reached is where the mistake points", async () => {
    const error = await mistake(
      testWorkflow(review, {
        args,
        agents: {
          "verifier-*": answer(VERDICT, { ok: true, findings: [] }),
          lead: [
            answer(DECISION, { approve: true, summary: "ok" }),
            answer("Ship it."),
            answer("An extra comment nobody asks for."), // @extra
          ],
        },
      }),
    );
    expect(error.message).toBe('agent "lead" was asked 2 turns; its script has 3');
    expect(problemsOf(error)).toEqual([
      expect.objectContaining({ code: "entry-never-reached", agent: "lead", key: "lead", index: 2, site: siteOf("extra"), sites: [siteOf("extra")] }),
    ]);
  });

  test("a verdict the schema refuses points at its entry, with the validator's path", async () => {
    const error = await mistake(
      testWorkflow(review, {
        args,
        agents: {
          "verifier-*": answer(VERDICT, { ok: true, findings: "none" } as never), // @refused
          lead: answer(DECISION, { approve: true, summary: "ok" }),
        },
      }),
    );
    const [problem] = problemsOf(error)!;
    expect(problem).toMatchObject({ code: "answer-refused", key: "verifier-*", pattern: "verifier-*", path: "/findings", site: siteOf("refused") });
    expect(error.message).toMatch(/^agent "verifier-\d" turn 1: the schema refused its script's answer: \/findings is "none"; allowed: a list$/);
  });
});
