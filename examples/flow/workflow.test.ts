import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import flow, { BRANCH, DOC, QA } from "./workflow";

const happyPath = {
  reviewer: answer(DOC, { path: "docs/a.md" }),
  implementer: [answer("Implemented."), answer(BRANCH, { branch: "feat/a" })],
  worker: answer(QA, { preview: "ok" }),
};

describe("flow", () => {
  test("a first attempt runs every stage, and the implementer compacts once", async () => {
    const run = await testWorkflow(flow, { agents: happyPath });
    expect(run.value).toEqual({ doc: "docs/a.md", branch: "feat/a", preview: "ok" });
    expect(run.stages.map((stage) => [stage.name, stage.attempt])).toEqual([
      ["doc-review", 1],
      ["implement", 1],
      ["qa", 1],
    ]);
    expect(run.compactionsOf("implementer")).toHaveLength(1);
  });

  test("a continue reuses the stages an earlier attempt recorded", async () => {
    // The testing API page's sample, as printed.
    const run = await testWorkflow(flow, {
      earlier: { stages: { "doc-review": { path: "docs/a.md" }, implement: { branch: "feat/a" } } },
      agents: { worker: answer(QA, { preview: "ok" }) },
    });
    expect(run.compactions).toEqual([]); // a compaction inside implement isn't repeated
    expect(run.value).toEqual({ doc: "docs/a.md", branch: "feat/a", preview: "ok" });
    expect(run.ending.stages.map((stage) => [stage.name, stage.source, stage.attempt])).toEqual([
      ["doc-review", "reused", 1],
      ["implement", "reused", 1],
      ["qa", "ran", 2],
    ]);
  });

  test("fromStage redoes implement, with the reviewed doc given as a value", async () => {
    const run = await testWorkflow(flow, {
      fromStage: "implement",
      values: { "doc-review": { path: "docs/b.md" } },
      agents: { implementer: happyPath.implementer, worker: happyPath.worker },
    });
    expect(run.value).toEqual({ doc: "docs/b.md", branch: "feat/a", preview: "ok" });
    expect(run.turnsOf("implementer")[0]?.prompt).toBe("Implement docs/b.md.");
    expect(run.stages[0]).toMatchObject({ name: "doc-review", provided: true, value: { path: "docs/b.md" } });
  });

  test("started at qa with no values, it stops once and lists the two stages it needs", async () => {
    const run = await testWorkflow(flow, { fromStage: "qa" });
    expect(run.ending).toMatchObject({ kind: "stopped", stage: "doc-review" });
    expect(run.ending.kind === "stopped" && run.ending.reason).toBe(
      `stage qa is where this attempt starts, and the stages before it need values: doc-review (result ${JSON.stringify(DOC)}), ` +
        `implement (result ${JSON.stringify(BRANCH)}); give them in values, as awf run --values does`,
    );
    expect(run.stages).toEqual([]);
  });
});
