// Tiny workflows and helpers the core tests share. Each workflow returns what its test reads back,
// outcomes included, so a test asserts the engine's own values rather than a summary of them.

import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, type AgentRef, type AgentSpec, type TurnSpec, type WorkflowContext } from "agentswf/workflow";
import Type from "typebox";

export const SUMMARY = Type.Object({ summary: Type.String() });
export const VERDICT = Type.Object({ ok: Type.Boolean(), note: Type.String() });

/** A workflow with no args whose run is `run`. */
export function flow<Result>(run: (wf: WorkflowContext) => Promise<Result>, name = "flow") {
  return defineWorkflow({ name, description: "A workflow a core test drives.", run: (wf) => run(wf) });
}

/** Opens agent "a" (or as `agent` says) and asks it one turn; returns the turn's outcome. */
export function askOnce(turn: TurnSpec, agent: Partial<AgentSpec> = {}) {
  return flow(async (wf) => {
    const opened = await wf.agents.open({ key: "a", runtime: "claude", ...agent });
    const { outcome } = await opened.run(turn as TurnSpec<undefined>);
    return outcome;
  }, "ask-once");
}

/** Asks agent `key` one text turn per prompt, in order; returns each outcome's kind. */
export function askTurns(prompts: string[], key = "a") {
  return flow(async (wf) => {
    const agent = await wf.agents.open({ key, runtime: "claude" });
    const kinds: string[] = [];
    for (const prompt of prompts) kinds.push((await agent.run({ prompt })).outcome.kind);
    return kinds;
  }, "ask-turns");
}

/** Asks each listed agent one text turn, all at once; returns their answers or outcome kinds. */
export function askEach(keys: string[], prompt = "go") {
  return flow(async (wf) => {
    return wf.parallel(keys, async (key) => {
      const agent = await wf.agents.open({ key, runtime: "claude" });
      const { outcome } = await agent.run({ prompt });
      return outcome.kind === "answered" ? outcome.value : outcome.kind;
    });
  }, "ask-each");
}

/** A promise with its resolve at hand: a barrier one script opens for another. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** A promise that never settles: a script still deciding when the engine gives up on it. */
export const forever = <T = never>() => new Promise<T>(() => {});

/** The error `running` rejected with; fails when it resolved instead. */
export async function mistake(running: Promise<unknown>): Promise<Error> {
  try {
    await running;
  } catch (error) {
    return error as Error;
  }
  throw new Error("testWorkflow resolved, but the test expected it to reject");
}

/** What `read` threw; fails when it returned. */
export function thrown(read: () => unknown): Error {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

/**
 * Opens "a", asks it one turn (so compact and fork have a session), then makes `call`; returns what
 * it threw (`Name: message`), or "accepted".
 */
export async function refusal(call: (wf: WorkflowContext, a: AgentRef) => unknown): Promise<string> {
  const workflow = defineWorkflow({
    name: "refusing",
    description: "Makes one call the engine refuses.",
    events: { note: Type.Object({ text: Type.String() }) },
    async run(wf) {
      const a = await wf.agents.open({ key: "a", runtime: "claude" });
      await a.run({ prompt: "Plan." });
      try {
        await call(wf, a);
        return "accepted";
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    },
  });
  return (await testWorkflow(workflow, { agents: { a: answer("planned") }, caller: { harness: "claude", model: "opus" } })).value;
}
