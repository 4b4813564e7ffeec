import { describe, expect, test } from "bun:test";
import { defineWorkflow, isAnswered } from "agentswf/workflow";
import { thrown } from "./workflows";

const run = async () => "ran";

describe("defineWorkflow", () => {
  test("makes a frozen workflow tagged with its kind", () => {
    const workflow = defineWorkflow({ name: "notes.v2_final-1", description: "Takes notes.", run });
    expect(workflow).toMatchObject({ kind: "turnlens.workflow/v1", name: "notes.v2_final-1", description: "Takes notes." });
    expect(Object.isFrozen(workflow)).toBe(true);
  });

  test("refuses a name other than letters, digits, '.', '_' and '-'", () => {
    expect(thrown(() => defineWorkflow({ name: "my workflow", description: "d", run })).message).toBe(
      `a workflow's name is letters, digits, '.', '_' and '-', not "my workflow"`,
    );
    expect(thrown(() => defineWorkflow({ name: "", description: "d", run })).message).toBe(`a workflow's name is letters, digits, '.', '_' and '-', not ""`);
  });

  test("refuses an empty description", () => {
    expect(thrown(() => defineWorkflow({ name: "w", description: "  ", run })).message).toBe("workflow w needs a description");
  });

  test("refuses a workflow without run, or with a hook that isn't a function", () => {
    expect(thrown(() => defineWorkflow({ name: "w", description: "d" } as never)).message).toBe("workflow w needs a run(wf, args) function");
    expect(thrown(() => defineWorkflow({ name: "w", description: "d", run, prepare: "argv" as never })).message).toBe("workflow w's prepare must be a function");
    expect(thrown(() => defineWorkflow({ name: "w", description: "d", run, report: {} as never })).message).toBe("workflow w's report must be a function");
    expect(thrown(() => defineWorkflow({ name: "w", description: "d", run, id: "v1" as never })).message).toBe("workflow w's id must be a function");
  });

  test("refuses what isn't a definition", () => {
    expect(thrown(() => defineWorkflow(null as never)).message).toBe("defineWorkflow takes { name, description, run }");
  });
});

test("isAnswered is true for answered outcomes only", () => {
  expect(isAnswered({ kind: "answered", value: 1 })).toBe(true);
  expect(isAnswered({ kind: "unanswered", reason: "x" })).toBe(false);
});
