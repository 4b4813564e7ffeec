// workflow.test.ts
import { expect, test } from "bun:test";
import { join } from "node:path";
import { answer, testWorkflow } from "agentswf/testing";
import sandboxed, { NOTES, UPGRADE } from "./workflow";

const args = { dependency: "typebox" };
const agents = {
  researcher: answer(NOTES, { breaking: ["Type.Strict is gone"] }),
  upgrader: answer(UPGRADE, { branch: "typebox-1", tests: "pass" }),
};

test("the researcher may write nothing, and the upgrader only the manifest, the lockfile and the source", async () => {
  const run = await testWorkflow(sandboxed, { args, agents });
  expect(run.value).toEqual({ dependency: "typebox", upgraded: true, branch: "typebox-1", why: "the tests pass" });
  // A test's sandboxes confine nothing: it checks what each agent was given, paths resolved against wf.cwd.
  const cwd = run.turnsOf("researcher")[0]!.cwd;
  expect(run.agentOf("researcher").sandbox).toEqual({
    key: "research",
    provider: "srt",
    spec: { read: [cwd], write: [], network: ["github.com", "registry.npmjs.org"] },
    domains: ["github.com", "registry.npmjs.org", "api.anthropic.com"],
  });
  expect(run.agentOf("upgrader").sandbox).toEqual({
    key: "agent:upgrader",
    provider: "srt",
    spec: { read: [cwd], write: ["package.json", "package-lock.json", "src"].map((path) => join(cwd, path)), network: ["registry.npmjs.org"] },
    domains: ["registry.npmjs.org", "api.openai.com"],
  });
  expect(run.sandboxes.map((sandbox) => [sandbox.key, sandbox.agents])).toEqual([
    ["research", ["researcher"]],
    ["agent:upgrader", ["upgrader"]],
  ]);
});

test("the headless upgrader cannot wait on the researcher, so it tells it instead", async () => {
  const told: unknown[] = [];
  const run = await testWorkflow(sandboxed, {
    args,
    agents: {
      ...agents,
      upgrader: answer(UPGRADE, async (turn) => {
        told.push(await turn.send("researcher", "Is Type.Strict's removal all?", { awaitReply: true }));
        told.push(await turn.send("researcher", "Type.Strict's removal was not all: Value.Cast moved too."));
        return { branch: "typebox-1", tests: "pass" };
      }),
    },
    messages: { researcher: () => undefined },
  });
  expect(told).toEqual([
    {
      kind: "refused",
      code: "cannot-await",
      reason:
        'agent "upgrader": codex cannot await a reply headless: headless codex runs each turn as `codex exec`, whose shell commands have a time limit, so `wfa send --await` cannot block until the reply comes',
    },
    { kind: "sent" },
  ]);
  expect(run.messagesOf("researcher")).toEqual([
    { from: "upgrader", text: "Type.Strict's removal was not all: Value.Cast moved too.", awaitReply: false, end: "delivered" },
  ]);
});

test("an upgrade whose tests fail is not counted as done", async () => {
  const run = await testWorkflow(sandboxed, { args, agents: { ...agents, upgrader: answer(UPGRADE, { branch: "typebox-1", tests: "fail" }) } });
  expect(run.value).toMatchObject({ upgraded: false, why: "the tests fail on the new version" });
});
