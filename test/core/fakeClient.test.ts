import { describe, expect, test } from "bun:test";
import { ClientError, type Client } from "agentswf/client";
import { fakeClient, FakeClientError, type FakeClientCall } from "agentswf/testing";
import { defineWorkflow, Type } from "agentswf/workflow";

// A workflow that takes events: `release.requested` may start a run, `deploy` may not; its runs are named by tag.
const release = defineWorkflow({
  name: "release",
  description: "Releases one tag once it is asked for, then deploys it where an event says.",
  id: (args: { tag: string }) => args.tag,
  events: {
    "release.requested": Type.Object({ tag: Type.String() }),
    deploy: Type.Object({ env: Type.String() }),
  },
  starts: ["release.requested"],
  async run(_wf, args: { tag: string }) {
    return args.tag;
  },
});

// A workflow with no events and no id(args): a start names its run with a made id.
const report = defineWorkflow({
  name: "report",
  description: "Writes one report.",
  async run() {
    return "done";
  },
});

const requested = (id: string, eventId?: string) => ({ workflow: release, id, name: "release.requested", data: { tag: id }, ...(eventId ? { eventId } : {}) });
const deploy = (id: string, eventId?: string) => ({ workflow: release, id, name: "deploy", data: { env: "prod" }, ...(eventId ? { eventId } : {}) });

/** What a call threw, to assert its code and exact message. */
async function thrown(call: Promise<unknown>): Promise<{ name: string; code: string; message: string }> {
  try {
    await call;
  } catch (error) {
    const { name, code, message } = error as ClientError;
    return { name, code, message };
  }
  throw new Error("the call did not throw");
}

/** An emit script that says the launch failed for the first `times` events, then leaves the rest to the rules. */
function launchFailsFirst(times: number) {
  let failures = 0;
  return () => (failures++ < times ? ({ did: "none", why: "launch-failed" } as const) : undefined);
}

describe("fakeClient, unscripted, answers as the client's rules do", () => {
  test("an event that may start a run starts it", async () => {
    const runs = fakeClient();
    expect(await runs.emit(requested("v1"))).toEqual({ did: "started", ok: true });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "nudged", ok: true });
  });

  test("an event that may not start a run, sent to no run, is refused: no-run", async () => {
    const runs = fakeClient();
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "refused", why: "no-run", ok: false });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "refused", why: "no-run", ok: false });
  });

  test("a run whose launch failed is kept, and its next event starts it", async () => {
    const runs = fakeClient({ emit: launchFailsFirst(1) });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "none", why: "launch-failed", ok: false });
    expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "started", ok: true });
    expect(await runs.emit(deploy("v1", "d-2"))).toEqual({ did: "nudged", ok: true });
  });

  test("a run whose launch failed is started by the same event resent, a duplicate that wakes it", async () => {
    const runs = fakeClient({ emit: launchFailsFirst(1) });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "none", why: "launch-failed", ok: false });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "duplicate", ok: true });
    expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "nudged", ok: true });
  });

  test("an event to a running run nudges it, and the same event resent is a duplicate", async () => {
    const runs = fakeClient();
    await runs.start({ workflow: release, args: { tag: "v1" } });
    expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "nudged", ok: true });
    expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "duplicate", ok: true });
  });

  test("an event continues a run once it is parked, failed or crashed", async () => {
    for (const state of ["parked", "failed", "crashed"] as const) {
      const runs = fakeClient({ rests: { "release/v1": [{ state }] } });
      await runs.start({ workflow: release, args: { tag: "v1" } });
      expect(await runs.wait({ workflow: release, id: "v1" })).toMatchObject({ state });
      expect(await runs.emit(deploy("v1"))).toEqual({ did: "continued", ok: true });
      expect(await runs.emit(deploy("v1"))).toEqual({ did: "nudged", ok: true });
    }
  });

  test("an event leaves a run alone once it is stopped, cancelled or stuck: none, and why names the state", async () => {
    for (const state of ["stopped", "cancelled", "stuck"] as const) {
      const runs = fakeClient({ rests: { "release/v1": [{ state }] } });
      await runs.start({ workflow: release, args: { tag: "v1" } });
      await runs.wait({ workflow: release, id: "v1" });
      expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "none", why: state, ok: false });
      expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "none", why: state, ok: false });
      expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state, final: true, ok: false });
    }
  });

  test("an event to a returned run is refused, and is none, returned, if resent", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "completed" }] } });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "started", ok: true });
    await runs.wait({ workflow: release, id: "v1" });
    expect(await runs.emit(deploy("v1", "d-1"))).toEqual({ did: "refused", why: "returned", ok: false });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "none", why: "returned", ok: false });
  });

  test("a reply to no run throws no-run", async () => {
    const runs = fakeClient();
    expect(await thrown(runs.reply({ workflow: release, id: "v9", participant: "lead", text: "ship it" }))).toEqual({
      name: "ClientError",
      code: "no-run",
      message: "reply to release/v9: there is no run release/v9 to reply to",
    });
  });

  test("a second start with the same args is exists, and with other args other-args", async () => {
    const runs = fakeClient();
    expect(await runs.start({ workflow: release, args: { tag: "v1" } })).toEqual({ did: "started", id: "v1", ok: true });
    expect(await runs.start({ workflow: release, args: { tag: "v1" } })).toEqual({ did: "exists", id: "v1", ok: true });
    expect(await runs.start({ workflow: release, id: "v1", args: { tag: "v2" } })).toEqual({
      did: "other-args",
      id: "v1",
      error: "run release/v1 exists with other args",
      ok: false,
    });
  });

  test("a start with an id names its run by it, else the workflow's id(args) does", async () => {
    const runs = fakeClient();
    expect(await runs.start({ workflow: release, id: "hotfix", args: { tag: "v1" } })).toMatchObject({ did: "started", id: "hotfix" });
    expect(await runs.start({ workflow: release, args: { tag: "v2" } })).toMatchObject({ did: "started", id: "v2" });
  });

  test("a start with no id and no id(args) names its run fake-1, fake-2 and so on, which rests can name", async () => {
    const runs = fakeClient({ rests: { "report/fake-2": [{ state: "failed" }] } });
    expect(await runs.start({ workflow: report })).toEqual({ did: "started", id: "fake-1", ok: true });
    expect(await runs.start({ workflow: report })).toEqual({ did: "started", id: "fake-2", ok: true });
    expect(await runs.wait({ workflow: report, id: "fake-2" })).toEqual({ state: "failed", final: true, ok: false });
  });

  test("a run moves to its next scripted rest at each wait", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "parked" }, { state: "completed" }] } });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "parked", final: false, ok: true });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "completed", final: true, ok: true });
  });

  test("a run moves to running when it is launched, so its next event nudges it", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "parked" }, { state: "completed" }] } });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    await runs.wait({ workflow: release, id: "v1" });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "continued", ok: true });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "nudged", ok: true });
    expect(await runs.wait({ workflow: release, id: "v1" })).toMatchObject({ state: "completed" });
  });

  test("after a launch that fails a run stays at its last rest", async () => {
    const runs = fakeClient({ emit: launchFailsFirst(1), rests: { "release/v1": [{ state: "parked" }] } });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    await runs.wait({ workflow: release, id: "v1" });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "none", why: "launch-failed", ok: false });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "parked", final: false, ok: true });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "continued", ok: true });
  });

  test("after a launch that fails a run with no rest is interrupted, and stuck after three", async () => {
    const runs = fakeClient({ start: () => ({ did: "launch-failed", error: "awf is not installed" }) });
    expect(await runs.start({ workflow: release, args: { tag: "v1" } })).toEqual({ did: "launch-failed", id: "v1", error: "awf is not installed", ok: false });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "interrupted", final: false, ok: false });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    expect(await runs.wait({ workflow: release, id: "v1" })).toMatchObject({ state: "interrupted" });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "stuck", final: true, ok: false });
    expect(await runs.emit(deploy("v1"))).toEqual({ did: "none", why: "stuck", ok: false });
  });

  test("a start after a failed launch, with the same args, is exists and launches the run", async () => {
    let calls = 0;
    const runs = fakeClient({ start: () => (calls++ === 0 ? { did: "launch-failed", error: "no pane" } : undefined) });
    await runs.start({ workflow: report, id: "r1" });
    expect(await runs.start({ workflow: report, id: "r1" })).toEqual({ did: "exists", id: "r1", ok: true });
    expect(await thrown(runs.wait({ workflow: report, id: "r1" }))).toMatchObject({ code: "fake-client-no-rest" });
  });

  test("final follows from the state and whether the workflow takes events", async () => {
    const runs = fakeClient({
      rests: {
        "release/v1": [{ state: "failed" }, { state: "crashed" }, { state: "interrupted" }, { state: "parked" }],
        "report/r1": [{ state: "failed" }, { state: "crashed" }, { state: "interrupted" }, { state: "parked" }],
      },
    });
    const finals = async (workflow: typeof release | typeof report, id: string) => {
      const seen: boolean[] = [];
      for (let wait = 0; wait < 4; wait++) seen.push((await runs.wait({ workflow, id })).final);
      return seen;
    };
    expect(await finals(release, "v1")).toEqual([false, false, false, false]);
    expect(await finals(report, "r1")).toEqual([true, true, true, false]);
  });

  test("a wait on a run no call made and rests doesn't name throws no-run", async () => {
    const runs = fakeClient();
    expect(await thrown(runs.wait({ workflow: report, id: "r9" }))).toEqual({
      name: "ClientError",
      code: "no-run",
      message: "wait on report/r9: there is no run report/r9",
    });
  });
});

describe("fakeClient's script", () => {
  test("the first start or event to reach a run rests names makes it; a wait before them takes a rest and makes it", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "parked" }], "release/v2": [{ state: "parked" }] } });
    expect(await runs.start({ workflow: release, args: { tag: "v1" } })).toMatchObject({ did: "started" });
    expect(await runs.wait({ workflow: release, id: "v2" })).toEqual({ state: "parked", final: false, ok: true });
    expect(await runs.start({ workflow: release, args: { tag: "v2" } })).toMatchObject({ did: "exists" });
    expect(await runs.emit(deploy("v2"))).toEqual({ did: "continued", ok: true });
  });

  test("overrides what it names, and a refused event leaves no run", async () => {
    let first = true;
    const runs = fakeClient({ emit: () => (first ? ((first = false), { did: "refused", why: "closed" }) : undefined) });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "refused", why: "closed", ok: false });
    expect(await thrown(runs.wait({ workflow: release, id: "v1" }))).toMatchObject({ code: "no-run" });
    expect(await runs.emit(requested("v1", "r-1"))).toEqual({ did: "started", ok: true });
  });

  test("why alone is did: none", async () => {
    const runs = fakeClient({ emit: () => ({ why: "nothing-due" }) });
    expect(await runs.emit(requested("v1"))).toEqual({ did: "none", why: "nothing-due", ok: false });
  });

  test("never gives ok: a result's ok follows from what it says", async () => {
    const runs = fakeClient({ emit: () => ({ did: "started", ok: true }) as never });
    expect(await thrown(runs.emit(requested("v1")))).toMatchObject({
      name: "FakeClientError",
      code: "fake-client-script-invalid",
      message: "fakeClient's emit script, for emit to release/v1: it gave ok, which follows from did; a script never gives it",
    });
    expect(() => fakeClient({ rests: { "release/v1": [{ state: "completed", ok: true } as never] } })).toThrow(
      `fakeClient's rests "release/v1" #1: gives ok, which follows from its state; a script never gives it`,
    );
  });

  test("a scripted rest's final wins over the rule", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "failed", final: true }] } });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "failed", final: true, ok: false });
    expect(await runs.wait({ workflow: release, id: "v1" })).toEqual({ state: "failed", final: true, ok: false });
  });

  test("a hook sees the call with the run's id and the event id as given", async () => {
    const seen: unknown[] = [];
    const runs = fakeClient({
      start: (call) => (seen.push(call), undefined),
      emit: (call) => (seen.push(call), undefined),
    });
    await runs.start({ workflow: report, args: null });
    await runs.emit(deploy("v1", "d-1"));
    expect(seen).toEqual([
      { workflow: "report", id: "fake-1", args: null },
      { workflow: "release", id: "v1", name: "deploy", data: { env: "prod" }, eventId: "d-1" },
    ]);
  });

  test("inbox gives what the script gives for the read, and none unscripted", async () => {
    const item = { workflow: "release", id: "v1", participant: "lead", messageId: "m-1", from: "planner", text: "Ship on Friday?", asks: true };
    expect(await fakeClient().inbox()).toEqual([]);
    const runs = fakeClient({ inbox: (call) => (call.participant === "lead" ? [item] : []) });
    expect(await runs.inbox({ participant: "lead" })).toEqual([item]);
    expect(await runs.inbox({ participant: "ops", workflow: release })).toEqual([]);
  });

  test("a reply is the participant's reply event, which the emit script meets", async () => {
    const seen: unknown[] = [];
    const runs = fakeClient({ emit: (call) => (seen.push(call), undefined) });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    expect(await runs.reply({ workflow: release, id: "v1", participant: "lead", text: "Friday is fine.", to: "m-1" })).toEqual({ did: "nudged", ok: true });
    expect(seen).toEqual([{ workflow: "release", id: "v1", name: "lead:reply", data: { text: "Friday is fine.", to: "m-1" } }]);
  });

  test("a hook that isn't one fails with the name it probably meant", () => {
    expect(() => fakeClient({ emits: () => undefined } as never)).toThrow(`fakeClient takes no script "emits"; did you mean "emit"?`);
    expect(() => fakeClient({ rests: { release: [] } })).toThrow(`fakeClient's rests "release": names no run; a key is "<workflow>/<id>", such as "release/v1"`);
    expect(() => fakeClient({ rests: { "release/v1": [{ state: "running" } as never] } })).toThrow(
      `fakeClient's rests "release/v1" #1: state "running" is not a rest: a wait resolves once the run rests; a rest is one of "parked", "completed", "failed", "crashed", "stopped", "cancelled", "interrupted", "stuck"`,
    );
  });

  test("a script mistake is a FakeClientError carrying its problems, with the fakeClient call's site", () => {
    let error: unknown;
    try {
      fakeClient({ inbox: [] as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FakeClientError);
    const problem = (error as FakeClientError).problems[0]!;
    expect(problem).toMatchObject({ code: "fake-client-script-invalid", message: "fakeClient's inbox script must be a function of the call, not []" });
    expect(problem.site?.file).toEndWith("fakeClient.test.ts");
  });

  test("a wait on a running run with no rest left fails the test, naming the run", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "parked" }] } });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    await runs.wait({ workflow: release, id: "v1" });
    await runs.emit(deploy("v1"));
    expect(await thrown(runs.wait({ workflow: release, id: "v1" }))).toEqual({
      name: "FakeClientError",
      code: "fake-client-no-rest",
      message: `fakeClient: wait on release/v1: the run is running and rests has no rest left for it (its 1 were taken); add one to rests["release/v1"]`,
    });
  });

  test("a hook that throws fails the test, naming the call", async () => {
    const runs = fakeClient({
      start: () => {
        throw new Error("boom");
      },
    });
    expect(await thrown(runs.start({ workflow: report, id: "r1" }))).toEqual({
      name: "FakeClientError",
      code: "fake-client-script-threw",
      message: "fakeClient's start script threw for start report/r1: boom",
    });
  });
});

describe("fakeClient runs the real client's file-free checks", () => {
  const runs = fakeClient();
  const refusals: Array<{ what: string; call: () => Promise<unknown>; code: string; message: string }> = [
    {
      what: "an event the workflow doesn't declare",
      call: () => runs.emit({ workflow: release, id: "v1", name: "shipped", data: {} }),
      code: "undeclared-event",
      message: `emit to release/v1: workflow "release" declares no event "shipped"; it takes "release.requested", "deploy"`,
    },
    {
      what: "data its schema refuses",
      call: () => runs.emit({ workflow: release, id: "v1", name: "deploy", data: { env: 3 } }),
      code: "bad-data",
      message: `emit to release/v1: event "deploy"'s data does not fit its schema: /env is 3; allowed: a string`,
    },
    {
      what: "an agent's ended event",
      call: () => runs.emit({ workflow: release, id: "v1", name: "lead:ended", data: {} }),
      code: "engine-only",
      message: `emit to release/v1: "lead:ended" is awf's own event, sent when agent "lead" ends; nobody else sends it`,
    },
    {
      what: "an event to a workflow with none",
      call: () => runs.emit({ workflow: report, id: "r1", name: "go", data: {} }),
      code: "no-events",
      message: `emit to report/r1: workflow "report" declares no events`,
    },
    {
      what: "a run id that can't name a folder",
      call: () => runs.start({ workflow: report, id: "a b" }),
      code: "bad-id",
      message: `start report: id must be a run id (letters, digits, '.', '_' and '-'), not "a b"`,
    },
    {
      what: "args that aren't JSON",
      call: () => runs.start({ workflow: release, args: { tag: new Date(0) as never } }),
      code: "bad-args",
      message: "start release: its args are not JSON: $.tag is a Date, not a plain object",
    },
    {
      what: "something defineWorkflow didn't make",
      call: () => runs.wait({ workflow: { name: "release" } as never, id: "v1" }),
      code: "not-a-workflow",
      message: "wait: workflow must be what defineWorkflow made, not an object",
    },
  ];
  test.each(refusals)("and refuses $what with a ClientError", async ({ call, code, message }) => {
    expect(await thrown(call())).toEqual({ name: "ClientError", code, message });
  });

  test("the error is the ClientError that agentswf/client exports", async () => {
    await expect(fakeClient().reply({ workflow: release, id: "v1", participant: "lead", text: "hi" })).rejects.toBeInstanceOf(ClientError);
  });
});

describe("fakeClient's calls", () => {
  test("keep every call in order, refused ones included", async () => {
    const runs = fakeClient({ rests: { "release/v1": [{ state: "completed" }] } });
    await runs.start({ workflow: release, args: { tag: "v1" } });
    await thrown(runs.emit({ workflow: release, id: "v1", name: "shipped" }));
    await runs.wait({ workflow: release, id: "v1" });
    await runs.emit(deploy("v1", "d-1"));
    await thrown(runs.reply({ workflow: release, id: "v2", participant: "lead", text: "no" }));
    await runs.inbox();
    const calls: readonly FakeClientCall[] = runs.calls;
    expect(calls.map((call) => [call.call, call.result ? "result" : call.error?.name])).toEqual([
      ["start", "result"],
      ["emit", "ClientError"],
      ["wait", "result"],
      ["emit", "result"],
      ["reply", "ClientError"],
      ["inbox", "result"],
    ]);
    expect(calls[0]).toEqual({ call: "start", workflow: "release", id: "v1", args: { tag: "v1" }, result: { did: "started", id: "v1", ok: true } });
    expect(calls[3]).toEqual({
      call: "emit",
      workflow: "release",
      id: "v1",
      name: "deploy",
      data: { env: "prod" },
      eventId: "d-1",
      result: { did: "refused", why: "returned", ok: false },
    });
  });
});

describe("the reference page's sample", () => {
  test("compiles and behaves as written", async () => {
    const runs = fakeClient({
      emit: (call) => (call.eventId === "d-1" ? { did: "none", why: "launch-failed" } : undefined),
      start: (_call) => undefined, // { did, error } for this start
      rests: { "release/v1": [{ state: "completed", final: true }] }, // what its waits come to, in order
      inbox: (_call) => [], // the items for this read
    });
    const client: Client = runs; // a program's handler takes it as its Client
    expect(await client.emit(requested("v1", "d-1"))).toEqual({ did: "none", why: "launch-failed", ok: false });
    expect(await client.emit(requested("v1", "d-2"))).toEqual({ did: "started", ok: true });
    expect(await client.start({ workflow: release, args: { tag: "v1" } })).toEqual({ did: "exists", id: "v1", ok: true });
    expect(await client.wait({ workflow: release, id: "v1" })).toEqual({ state: "completed", final: true, ok: true });
    expect(await client.inbox({ participant: "lead" })).toEqual([]);
    expect(runs.calls.map((call) => call.call)).toEqual(["emit", "emit", "start", "wait", "inbox"]);
  });
});

// Never called: `npm run typecheck` checks that a start's args are typed by its workflow, and may be
// left out only where they may be null.
// biome-ignore lint/suspicious/noExportsInTest: exported so that tsc keeps it though nothing calls it
export function startArgsAreTyped(client: Client) {
  return [
    client.start({ workflow: report }),
    client.start({ workflow: release, args: { tag: "v1" } }),
    // @ts-expect-error release takes args
    client.start({ workflow: release }),
    // @ts-expect-error a tag is a string
    client.start({ workflow: release, args: { tag: 1 } }),
  ];
}
