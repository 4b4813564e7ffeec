import { describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { answer, testWorkflow } from "agentswf/testing";
import type { SandboxRules, SandboxSpec, Workflow, WorkflowContext } from "agentswf/workflow";
import type { AgentHost, OpenedAgent, SandboxProvider } from "../../core/workflow/host.ts";
import { flow } from "./workflows";
import { runOnEngine } from "./engineRun";

/** What a call rejected with, as `<name>: <message>`, or "opened" when it resolved. */
const refusal = (call: Promise<unknown>) =>
  call.then(
    () => "opened",
    (error: Error) => `${error.name}: ${error.message}`,
  );

describe("what each agent was given", () => {
  test("agents given a sandbox from wf.sandboxes.open record its key, provider, resolved spec and domains, their own harness's model API added", async () => {
    const workflow = flow(async (wf) => {
      const repo = await wf.sandboxes.open({ key: "repo", read: ["."], write: ["src"], network: ["github.com", "*.npmjs.org"] });
      const writer = await wf.agents.open({ key: "writer", runtime: "claude", sandbox: repo });
      const checker = await wf.agents.open({ key: "checker", runtime: "codex", sandbox: repo });
      await writer.run({ prompt: "Write it." });
      await checker.run({ prompt: "Check it." });
      return { cwd: wf.cwd, ref: { key: repo.key, provider: repo.provider, spec: repo.spec } };
    });
    const run = await testWorkflow(workflow, { agents: { writer: answer("written"), checker: answer("checked") } });
    const { cwd, ref } = run.value;
    const spec = { read: [cwd], write: [join(cwd, "src")], network: ["github.com", "*.npmjs.org"] };
    expect(ref).toEqual({ key: "repo", provider: "srt", spec });
    expect(run.agentOf("writer").sandbox).toEqual({ key: "repo", provider: "srt", spec, domains: ["github.com", "*.npmjs.org", "api.anthropic.com"] });
    expect(run.agentOf("checker").sandbox).toEqual({ key: "repo", provider: "srt", spec, domains: ["github.com", "*.npmjs.org", "api.openai.com"] });
    expect(run.sandboxes).toEqual([
      { key: "repo", provider: "srt", spec, domains: ["github.com", "*.npmjs.org", "api.anthropic.com", "api.openai.com"], agents: ["writer", "checker"] },
    ]);
  });

  test("an inline sandbox is the agent's own, keyed agent:<key>, and runs on docker when it names an image", async () => {
    const workflow = flow(async (wf) => {
      const fixer = await wf.agents.open({ key: "fixer", runtime: "claude", sandbox: { write: ["."], docker: { image: "node:20" } } });
      await fixer.run({ prompt: "Fix it." });
      return wf.cwd;
    });
    const run = await testWorkflow(workflow, { agents: { fixer: answer("fixed") } });
    const sandbox = { key: "agent:fixer", provider: "docker", spec: { read: [], write: [run.value], network: [], docker: { image: "node:20" } } };
    expect(run.agentOf("fixer").sandbox).toEqual({ ...sandbox, domains: ["api.anthropic.com"] });
    expect(run.sandboxes).toEqual([{ ...sandbox, domains: ["api.anthropic.com"], agents: ["fixer"] }]);
  });

  test("paths resolve against wf.cwd: relative ones under it or beside it, absolute ones as given, each once", async () => {
    const workflow = flow(async (wf) => {
      const box = await wf.sandboxes.open({ key: "box", read: ["./docs", "docs", "../shared", "/etc/hosts"] });
      return { cwd: wf.cwd, read: box.spec.read };
    });
    const run = await testWorkflow(workflow);
    const { cwd, read } = run.value;
    expect(read).toEqual([join(cwd, "docs"), resolve(cwd, "..", "shared"), "/etc/hosts"]);
  });

  test("a domain is kept lower-case, and the model API is listed once when the network names it too", async () => {
    const workflow = flow(async (wf) => {
      const box = await wf.sandboxes.open({ key: "box", network: ["API.Anthropic.com"] });
      await wf.agents.open({ key: "a", runtime: "claude", sandbox: box });
    });
    const run = await testWorkflow(workflow);
    expect(run.agentOf("a").sandbox?.domains).toEqual(["api.anthropic.com"]);
  });

  test("a fork runs in its parent's sandbox and reaches what its parent reaches", async () => {
    const workflow = flow(async (wf) => {
      const planner = await wf.agents.open({ key: "planner", runtime: "claude", sandbox: { read: ["."], network: ["docs.example.com"] } });
      await planner.run({ prompt: "Plan." });
      await planner.fork({ key: "skeptic" });
    });
    const run = await testWorkflow(workflow, { agents: { planner: answer("plan") } });
    expect(run.agentOf("skeptic").sandbox).toEqual(run.agentOf("planner").sandbox);
    expect(run.agentOf("skeptic").sandbox?.key).toBe("agent:planner");
    expect(run.sandboxes.map((sandbox) => sandbox.agents)).toEqual([["planner", "skeptic"]]);
  });

  test("an agent opened without a sandbox has none, and a run that opens none lists none", async () => {
    const run = await testWorkflow(flow(async (wf) => void (await wf.agents.open({ key: "a", runtime: "claude" }))));
    expect(run.agentOf("a")).not.toHaveProperty("sandbox");
    expect(run.sandboxes).toEqual([]);
  });
});

describe("reopening", () => {
  test("a key opened again with its rules, some of them, or none gives the same ref; another rule rejects, naming each that differs", async () => {
    const workflow = flow(async (wf) => {
      const first = await wf.sandboxes.open({ key: "repo", read: ["src", "docs"], network: ["github.com"] });
      const same = await wf.sandboxes.open({ key: "repo", read: ["./docs", "src"], srt: true });
      const bare = await wf.sandboxes.open({ key: "repo" });
      const conflict = await refusal(wf.sandboxes.open({ key: "repo", read: ["src"], network: ["github.com"], docker: { image: "node:20" } }));
      return { same: same === first, bare: bare === first, conflict };
    });
    const run = await testWorkflow(workflow);
    expect(run.value).toEqual({ same: true, bare: true, conflict: 'WorkflowRuleError: sandbox "repo" is already open with another read, docker' });
    expect(run.sandboxes.map((sandbox) => sandbox.key)).toEqual(["repo"]);
  });

  test("an agent reopened with its sandbox is the same agent; another sandbox, or one where it had none, rejects naming sandbox", async () => {
    const workflow = flow(async (wf) => {
      const repo = await wf.sandboxes.open({ key: "repo", read: ["."] });
      const other = await wf.sandboxes.open({ key: "other" });
      const shared = await wf.agents.open({ key: "shared", runtime: "claude", sandbox: repo });
      const own = await wf.agents.open({ key: "own", runtime: "claude", sandbox: { write: ["out"] } });
      const bare = await wf.agents.open({ key: "bare", runtime: "claude" });
      return {
        sharedAgain: (await wf.agents.open({ key: "shared", runtime: "claude", sandbox: repo })) === shared,
        sharedUnsaid: (await wf.agents.open({ key: "shared", runtime: "claude" })) === shared,
        ownAgain: (await wf.agents.open({ key: "own", runtime: "claude", sandbox: { write: ["./out"] } })) === own,
        sharedElsewhere: await refusal(wf.agents.open({ key: "shared", runtime: "claude", sandbox: other })),
        ownOtherRules: await refusal(wf.agents.open({ key: "own", runtime: "claude", sandbox: { write: ["elsewhere"] } })),
        ownShared: await refusal(wf.agents.open({ key: "own", runtime: "claude", sandbox: repo })),
        bareNow: await refusal(wf.agents.open({ key: "bare", runtime: "claude", sandbox: repo })),
        bareSame: bare.key,
      };
    });
    const run = await testWorkflow(workflow);
    expect(run.value).toEqual({
      sharedAgain: true,
      sharedUnsaid: true,
      ownAgain: true,
      sharedElsewhere: 'WorkflowRuleError: agent "shared" is already open with another sandbox',
      ownOtherRules: 'WorkflowRuleError: agent "own" is already open with another sandbox',
      ownShared: 'WorkflowRuleError: agent "own" is already open with another sandbox',
      bareNow: 'WorkflowRuleError: agent "bare" is already open with another sandbox',
      bareSame: "bare",
    });
    expect(run.sandboxes.map((sandbox) => [sandbox.key, sandbox.agents])).toEqual([
      ["repo", ["shared"]],
      ["other", []],
      ["agent:own", ["own"]],
    ]);
  });
});

describe("refusals", () => {
  const opening = (spec: unknown) => flow((wf: WorkflowContext) => refusal(wf.sandboxes.open(spec as SandboxSpec)));

  test.each<[string, unknown, string]>([
    ["no spec", null, "TypeError: wf.sandboxes.open takes { key, read?, write?, network?, srt? | docker? }"],
    ["no key", { read: ["."] }, "TypeError: wf.sandboxes.open needs a key"],
    [
      "an agent's private key",
      { key: "agent:fixer" },
      'WorkflowRuleError: sandbox key "agent:fixer" is taken: "agent:<key>" is the private sandbox of an agent given an inline spec',
    ],
    ["a key with a space", { key: "my box" }, "TypeError: sandbox key \"my box\" is letters, digits, '.', '_' and '-'"],
    ["a misspelt rule", { key: "box", reads: ["."] }, 'TypeError: sandbox "box" takes no option "reads"; did you mean "read"?'],
    ["paths that are no list", { key: "box", read: "src" }, 'TypeError: sandbox "box": read is a list of paths, not "src"'],
    ["an empty path", { key: "box", write: [""] }, 'TypeError: sandbox "box": write lists paths; "" is not one'],
    [
      "a path from home",
      { key: "box", read: ["~/.ssh"] },
      'TypeError: sandbox "box": read: "~/.ssh" starts with ~, which is not expanded; give an absolute path or one relative to wf.cwd',
    ],
    ["domains that are no list", { key: "box", network: "github.com" }, 'TypeError: sandbox "box": network is a list of domains, not "github.com"'],
    [
      "a URL for a domain",
      { key: "box", network: ["https://github.com"] },
      'TypeError: sandbox "box": network lists domains such as "github.com" or "*.npmjs.org"; "https://github.com" is not one',
    ],
    ["srt with options", { key: "box", srt: {} }, 'TypeError: sandbox "box": srt is true (it takes no options), not {}'],
    ["docker with no image", { key: "box", docker: {} }, 'TypeError: sandbox "box": docker names the image its container runs, such as { image: "node:20" }, not {}'],
    ["two providers", { key: "box", srt: true, docker: { image: "node:20" } }, 'TypeError: sandbox "box" is confined by one provider, srt or docker, not both'],
  ])("wf.sandboxes.open refuses %s", async (_case, spec, message) => {
    const run = await testWorkflow(opening(spec));
    expect(run.value).toBe(message);
    expect(run.sandboxes).toEqual([]);
  });

  const givingSandbox = (sandbox: unknown) =>
    flow(async (wf: WorkflowContext) => refusal(wf.agents.open({ key: "a", runtime: "claude", sandbox: sandbox as SandboxRules })));

  test.each<[string, unknown, string]>([
    ["a key for a ref", "box", 'TypeError: agent "a": its sandbox is a ref from wf.sandboxes.open or a sandbox\'s rules, not "box"'],
    [
      "an inline sandbox with a key",
      { key: "box" },
      'TypeError: agent "a": an inline sandbox has no key (it is the agent\'s own, "agent:a"); wf.sandboxes.open opens one agents share',
    ],
    [
      "an inline sandbox with a bad domain",
      { network: ["x y"] },
      'TypeError: sandbox "agent:a": network lists domains such as "github.com" or "*.npmjs.org"; "x y" is not one',
    ],
  ])("wf.agents.open refuses %s, and opens no agent", async (_case, sandbox, message) => {
    const run = await testWorkflow(givingSandbox(sandbox));
    expect(run.value).toBe(message);
    expect(run.agents).toEqual([]);
    expect(run.sandboxes).toEqual([]);
  });
});

describe("the sandbox provider edge", () => {
  const host = (opened: OpenedAgent[]): AgentHost => ({
    opened: (agent) => void opened.push(agent),
    run: async (operation) => (operation.submit("ok"), { kind: "submitted" }),
    settle: () => {},
  });
  const engine = <Result>(workflow: Workflow<null, Result>, sandboxes?: SandboxProvider, opened: OpenedAgent[] = []) =>
    runOnEngine(workflow, host(opened), { runId: "sandboxes", cwd: "/work/repo", ...(sandboxes ? { sandboxes } : {}) });

  test("a run with no sandbox provider refuses a sandbox, since nothing would confine its agents", async () => {
    const workflow = flow(async (wf) => ({
      shared: await refusal(wf.sandboxes.open({ key: "repo" })),
      inline: await refusal(wf.agents.open({ key: "a", runtime: "claude", sandbox: { read: ["."] } })),
    }));
    const result = await engine(workflow);
    expect(result.ending).toMatchObject({
      kind: "completed",
      value: {
        shared: 'Error: sandbox "repo": the run has no sandbox provider, so nothing would confine its agents',
        inline: 'Error: sandbox "agent:a": the run has no sandbox provider, so nothing would confine its agents',
      },
    });
  });

  test("a provider that refuses a sandbox rejects its open, naming the sandbox and the provider's reason", async () => {
    const refusing: SandboxProvider = {
      opened: (sandbox) => {
        if (sandbox.provider === "docker") throw new Error("docker is not running");
      },
      entered: () => {},
    };
    const onSrt = flow(async (wf) => refusal(wf.sandboxes.open({ key: "box" })));
    const onDocker = flow(async (wf) => refusal(wf.sandboxes.open({ key: "box", docker: { image: "node:20" } })));
    expect((await engine(onSrt, refusing)).ending).toMatchObject({ kind: "completed", value: "opened" });
    expect((await engine(onDocker, refusing)).ending).toMatchObject({
      kind: "completed",
      value: 'Error: sandbox "box": its provider refused it: docker is not running',
    });
  });

  test("the provider is told of each sandbox once and of each agent put in it, and the host gets each agent's sandbox", async () => {
    const told: string[] = [];
    const provider: SandboxProvider = {
      opened: (sandbox) => void told.push(`opened ${sandbox.key} (${sandbox.provider}), reading ${JSON.stringify(sandbox.spec.read)}`),
      entered: (agent, sandbox) => void told.push(`entered ${agent} into ${sandbox.key}: ${sandbox.domains.join(" ")}`),
    };
    const opened: OpenedAgent[] = [];
    const workflow = flow(async (wf) => {
      const repo = await wf.sandboxes.open({ key: "repo", read: ["src"] });
      await wf.sandboxes.open({ key: "repo" });
      await wf.agents.open({ key: "a", runtime: "claude", sandbox: repo });
      await wf.agents.open({ key: "a", runtime: "claude", sandbox: repo });
      await wf.agents.open({ key: "b", runtime: { harness: "cursor", model: "auto" }, sandbox: { network: ["example.com"] } });
    });
    expect((await engine(workflow, provider, opened)).ending.kind).toBe("completed");
    expect(told).toEqual([
      'opened repo (srt), reading ["/work/repo/src"]',
      "entered a into repo: api.anthropic.com",
      "opened agent:b (srt), reading []",
      "entered b into agent:b: example.com api2.cursor.sh",
    ]);
    expect(opened.map((agent) => agent.sandbox?.key)).toEqual(["repo", "agent:b"]);
  });
});
