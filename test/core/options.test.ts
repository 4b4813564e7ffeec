import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow } from "agentswf/workflow";
import { problemsOf } from "turnlens/trace";
import { askOnce, flow, mistake, needsFile } from "./workflows";

const hello = askOnce({ prompt: "hello" });
const scripted = { agents: { a: answer("hi") } };

const ALL_OPTIONS =
  '"args", "id", "agents", "compactions", "messages", "participants", "decisions", "allowance", "runtimes", ' +
  '"caller", "timeout", "stall", "maxTimers", "maxTurns", "files", "cwd", "panes", "earlier", "fromStage", "values"';

const withEvents = defineWorkflow({
  name: "with-events",
  description: "A workflow that declares events.",
  events: { "case.changed": {} },
  run: async () => "ran",
});

describe("an option testWorkflow doesn't take", () => {
  test("is refused with the nearest name when one is near", async () => {
    // @ts-expect-error a misspelt option
    const error = await mistake(testWorkflow(hello, { agent: { a: answer("hi") } }));
    expect(error.message).toBe('testWorkflow takes no option "agent"; did you mean "agents"?');
    expect(problemsOf(error)).toEqual([{ code: "unknown-option", option: "agent", suggestion: "agents", message: error.message }]);
  });

  test("is refused with every name it takes when none is near", async () => {
    // @ts-expect-error not an option
    const error = await mistake(testWorkflow(hello, { zebrafish: 1 }));
    expect(error.message).toBe(`testWorkflow takes no option "zebrafish"; it takes ${ALL_OPTIONS}`);
    expect(problemsOf(error)?.[0]?.suggestion).toBeUndefined();
  });

  test("written in another case is matched to the name it takes", async () => {
    // @ts-expect-error wrong case
    const error = await mistake(testWorkflow(hello, { MAXTURNS: 3 }));
    expect(error.message).toBe('testWorkflow takes no option "MAXTURNS"; did you mean "maxTurns"?');
  });

  test("is refused one line each, in name order", async () => {
    // @ts-expect-error two misspellings
    const error = await mistake(testWorkflow(hello, { timout: "1s", agent: {} }));
    expect(error.message).toBe('testWorkflow takes no option "agent"; did you mean "agents"?\n' + 'testWorkflow takes no option "timout"; did you mean "timeout"?');
  });

  test("is refused before prepare is called", async () => {
    let prepared = 0;
    const counted = defineWorkflow({
      name: "counted",
      description: "Counts its prepares.",
      prepare: () => (prepared++, null),
      run: async () => "ran",
    });
    // @ts-expect-error not an option
    await mistake(testWorkflow(counted, { nope: true }));
    expect(prepared).toBe(0);
  });

  test("an object given second is read as the options, so a workflow's args there are refused", async () => {
    // @ts-expect-error args belong in options.args
    const error = await mistake(testWorkflow(hello, { file: "README.md" }));
    expect(error.message).toBe('testWorkflow takes no option "file"; did you mean "files"?');
  });

  test("args given as a third argument are refused", async () => {
    // @ts-expect-error the older three-argument form
    const error = await mistake(testWorkflow(hello, { file: "README.md" }, scripted));
    expect(error.message).toBe("testWorkflow takes (workflow, options); a workflow's args go in options.args");
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: "args" });
  });

  test("a first argument defineWorkflow didn't make is refused", async () => {
    const error = await mistake(testWorkflow({ name: "x", run: async () => 1 } as never, scripted));
    expect(error.message).toBe("testWorkflow's first argument must be what defineWorkflow made");
  });

  test("options that aren't an object are refused", async () => {
    const error = await mistake(testWorkflow(hello, "agents" as never));
    expect(error.message).toBe('testWorkflow\'s options must be an object, not "agents"');
  });
});

describe("options given as undefined, or not for this workflow", () => {
  test("one given as undefined is let through", async () => {
    const run = await testWorkflow(hello, { ...scripted, compactions: undefined, panes: undefined });
    expect(run.value).toEqual({ kind: "answered", value: "hi" });
  });

  test("event and events are refused on a workflow without events", async () => {
    // @ts-expect-error event and events are type errors too on a workflow without events
    const error = await mistake(testWorkflow(hello, { event: { name: "x" }, events: [] }));
    expect(error.message).toBe(
      'testWorkflow takes "event" only for a workflow with events; ask-once declares none\n' +
        'testWorkflow takes "events" only for a workflow with events; ask-once declares none',
    );
    expect(problemsOf(error)?.map((problem) => problem.code)).toEqual(["unknown-option", "unknown-option"]);
  });

  test("values is no option of a workflow with events", async () => {
    const error = await mistake(testWorkflow(withEvents, { values: {} } as never));
    expect(error.message).toStartWith('testWorkflow takes no option "values"; it takes "args", "id", ');
    expect(error.message).toEndWith('"earlier", "fromStage", "event", "events"');
  });
});

describe("args", () => {
  const prepared = defineWorkflow({
    name: "prepared",
    description: "Reads a file named on the command line.",
    prepare: ({ argv, cwd }) => ({ argv, cwd }),
    run: async (wf, args) => ({ args, cwd: wf.cwd }),
  });

  test("left out, are what prepare makes of no argv in the run's directory", async () => {
    // @ts-expect-error tsc wants args where they can't be null; left out, prepare makes them
    const run = await testWorkflow(prepared, {});
    expect(run.value.args).toEqual({ argv: [], cwd: run.value.cwd });
  });

  test("given, go to run as given, and prepare isn't called", async () => {
    const args = { argv: ["given"], cwd: "/nowhere" };
    let seen: unknown;
    const strict = defineWorkflow({
      name: "strict",
      description: "Refuses every argv.",
      prepare: (): { argv: string[]; cwd: string } => {
        throw new Error("never called");
      },
      run: async (_wf, given) => ((seen = given), "ran"),
    });
    await testWorkflow(strict, { args });
    expect(seen).toBe(args);
  });

  test("are null for a workflow without prepare", async () => {
    const run = await testWorkflow(
      flow(async (_wf) => "ran"),
      {},
    );
    expect(run.value).toBe("ran");
    const nulls = defineWorkflow({ name: "nulls", description: "Returns its args.", run: async (_wf, args) => ({ args }) });
    expect((await testWorkflow(nulls)).value).toEqual({ args: null });
  });

  test("are required where prepare refuses no argv", async () => {
    const error = await mistake(testWorkflow(needsFile, {} as never));
    expect(error.message).toBe("needs-file needs args: its prepare refused none: give a file");
    expect(problemsOf(error)).toEqual([{ code: "args-required", option: "args", message: error.message }]);
  });
});

describe("id", () => {
  const ids = flow(async (wf) => wf.runId);

  test('is "test" unless given', async () => {
    const run = await testWorkflow(ids);
    expect(run.value).toBe("test");
  });

  test("given, is the run's id and names it in the command that continues it", async () => {
    const run = await testWorkflow(
      flow(async (wf) => wf.stop(`run ${wf.runId}`)),
      { id: "ticket-42" },
    );
    expect(run.ending).toMatchObject({ kind: "stopped", reason: "run ticket-42", continue: "awf run flow --continue ticket-42" });
  });
});
