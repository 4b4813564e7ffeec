// "Turnlens: Write a Test from a Run Folder…" (extension/vscodeFree/recordRunFlow.ts) over a fake UI: the
// folder and workflow asked, the server's command called, the test opened, a file in the way
// overwritten only when the user says so, and a run that does not replay said in words.
import { describe, expect, test } from "bun:test";
import { recordRunFlow, type RecordRunUi } from "../../extension/vscodeFree/recordRunFlow.ts";
import type { RecordRunArguments, RecordRunResult } from "../../server/protocol.ts";

function fakeUi(choices: { folder?: string; workflow?: string; overwrite?: boolean } = {}) {
  const said: string[] = [];
  const ui: RecordRunUi = {
    pickFolder: async () => choices.folder,
    pickWorkflow: async () => choices.workflow,
    confirm: async (message, action) => (said.push(`confirm ${message} [${action}]`), choices.overwrite ?? false),
    open: async (file) => void said.push(`open ${file}`),
    info: (message) => void said.push(`info ${message}`),
    error: (message) => void said.push(`error ${message}`),
  };
  return { ui, said };
}

const written: RecordRunResult = { ok: true, written: "/w/run-7.test.ts", turns: 3, events: 1, decisions: 0, partings: [] };
const chosen = { folder: "/runs/run-7", workflow: "/w/workflow.ts" };

describe("writing a test from a run folder in the editor", () => {
  test("asks for the folder and the workflow, runs record, and opens the written test", async () => {
    const { ui, said } = fakeUi(chosen);
    const calls: RecordRunArguments[] = [];
    expect(await recordRunFlow(ui, async (args) => (calls.push(args), written))).toBe("/w/run-7.test.ts");
    expect(calls).toEqual([{ folder: "/runs/run-7", workflow: "/w/workflow.ts" }]);
    expect(said).toEqual(["open /w/run-7.test.ts", "info Turnlens: wrote run-7.test.ts (3 turns, 1 event)."]);
  });

  test("a folder or workflow not chosen runs nothing", async () => {
    const calls: RecordRunArguments[] = [];
    const execute = async (args: RecordRunArguments) => (calls.push(args), written);
    expect(await recordRunFlow(fakeUi({}).ui, execute)).toBeUndefined();
    expect(await recordRunFlow(fakeUi({ folder: "/runs/run-7" }).ui, execute)).toBeUndefined();
    expect(calls).toEqual([]);
  });

  test("a test in the way is overwritten only when the user says so", async () => {
    const inTheWay: RecordRunResult = {
      ok: false,
      turns: 0,
      events: 0,
      decisions: 0,
      partings: [],
      error: "/w/run-7.test.ts exists; give --force to overwrite it, or --out another file",
    };
    const declined = fakeUi({ ...chosen, overwrite: false });
    const calls: RecordRunArguments[] = [];
    expect(await recordRunFlow(declined.ui, async (args) => (calls.push(args), inTheWay))).toBeUndefined();
    expect(declined.said).toEqual(["confirm run-7.test.ts exists. Overwrite it with the test of run-7? [Overwrite]"]);
    const accepted = fakeUi({ ...chosen, overwrite: true });
    expect(await recordRunFlow(accepted.ui, async (args) => (calls.push(args), args.force ? written : inTheWay))).toBe("/w/run-7.test.ts");
    expect(calls.at(-1)).toEqual({ folder: "/runs/run-7", workflow: "/w/workflow.ts", force: true });
  });

  test("a run that does not replay, and a folder record cannot read, are errors in words", async () => {
    const parts = fakeUi(chosen);
    await recordRunFlow(parts.ui, async () => ({ ok: false, turns: 1, events: 0, decisions: 0, partings: ['agent "reader" turn 2 is new: asked "More."'] }));
    expect(parts.said).toEqual(['error Turnlens: run-7 does not replay against workflow.ts, so no test was written: agent "reader" turn 2 is new: asked "More."']);
    const unreadable = fakeUi(chosen);
    await recordRunFlow(unreadable.ui, async () => ({ ok: false, turns: 0, events: 0, decisions: 0, partings: [], error: "no such run folder: /runs/run-7" }));
    expect(unreadable.said).toEqual(["error Turnlens: no such run folder: /runs/run-7"]);
  });
});
