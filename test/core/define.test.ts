import { describe, expect, test } from "bun:test";
import { defineWorkflow, isAnswered } from "agentswf/workflow";
import { needsFile, thrown } from "./workflows";

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
    expect(thrown(() => defineWorkflow({ name: "w", description: "  ", run })).message).toBe(
      `workflow w's "description" must be what the workflow does, as text, not "  "`,
    );
  });

  test("refuses a workflow without run, or with a hook that isn't a function", () => {
    expect(thrown(() => defineWorkflow({ name: "w", description: "d" } as never)).message).toBe(`workflow w needs "run": a run(wf, args) function`);
    expect(thrown(() => defineWorkflow({ name: "w", description: "d", run, prepare: "argv" as never })).message).toBe(
      `workflow w's "prepare" must be a function from { argv, cwd } to the workflow's args, not "argv"`,
    );
    expect(thrown(() => defineWorkflow({ name: "w", description: "d", run, report: {} as never })).message).toBe(
      `workflow w's "report" must be a function from the value and the ending to text, not {}`,
    );
    expect(thrown(() => defineWorkflow({ name: "w", description: "d", run, id: "v1" as never })).message).toBe(
      `workflow w's "id" must be a function from the args to the run's id, not "v1"`,
    );
  });

  test("refuses what isn't a definition", () => {
    expect(thrown(() => defineWorkflow(null as never)).message).toBe("defineWorkflow takes { name, description, run }");
  });
});

test("isAnswered is true for answered outcomes only", () => {
  expect(isAnswered({ kind: "answered", value: 1 })).toBe(true);
  expect(isAnswered({ kind: "unanswered", reason: "x" })).toBe(false);
});

describe("a workflow's prepare, as a test calls it", () => {
  // The type annotations are the test as much as the assertions: npm run typecheck fails if a
  // synchronous prepare were typed optional or as returning a promise.
  test("a synchronous prepare is exactly the function written: called with only argv, it returns the args", () => {
    const summarize = defineWorkflow({
      name: "summarize",
      description: "Summarizes a file.",
      prepare: ({ argv }) => ({ file: argv[0] ?? "README.md" }),
      run: async (_wf, { file }) => file,
    });
    const file: string = summarize.prepare({ argv: [] }).file;
    expect(file).toBe("README.md");
    expect(summarize.prepare({ argv: ["NOTES.md"], cwd: "/tmp" })).toEqual({ file: "NOTES.md" });
  });

  test("an async prepare returns its promise, and cwd left out is the process's", async () => {
    const located = defineWorkflow({
      name: "located",
      description: "Works where it is run.",
      prepare: async ({ argv, cwd }) => ({ where: cwd, first: argv[0] ?? null }),
      run: async (_wf, { where }) => where,
    });
    const prepared: Promise<{ where: string; first: string | null }> = located.prepare({ argv: [] });
    expect(await prepared).toEqual({ where: process.cwd(), first: null });
  });

  test("a prepare that refuses throws to the test that calls it", () => {
    expect(() => needsFile.prepare({ argv: [] })).toThrow("give a file");
    expect(needsFile.prepare({ argv: ["PAY-1"] }).file).toBe("PAY-1");
  });

  test("a workflow without prepare has none to call", () => {
    const plain = defineWorkflow({ name: "plain", description: "Takes no args.", run });
    // @ts-expect-error prepare is optional on a workflow defined without one
    expect(() => plain.prepare({ argv: [] })).toThrow(TypeError);
  });
});
