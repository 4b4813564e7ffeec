// Tiny workflows and helpers the core tests share. Each workflow returns what its test reads back,
// outcomes included, so a test asserts the engine's own values rather than a summary of them.

import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, type AgentRef, type AgentSpec, type EventSchemas, type RouteSpec, type TurnSpec, type WorkflowContext } from "agentswf/workflow";
import Type from "typebox";

export const SUMMARY = Type.Object({ summary: Type.String() });
export const VERDICT = Type.Object({ ok: Type.Boolean(), note: Type.String() });
/** The `note` event most event tests declare. */
export const NOTE = Type.Object({ text: Type.String() });

/** Takes a file, and refuses to run without one: its args can't be null. */
export const needsFile = defineWorkflow({
  name: "needs-file",
  description: "Reads the file its args name.",
  prepare: ({ argv }) => {
    if (!argv[0]) throw new Error("give a file");
    return { file: argv[0] };
  },
  run: async (_wf, { file }) => `read ${file}`,
});

/** A workflow with no args whose run is `run`. */
export function flow<Result>(run: (wf: WorkflowContext) => Promise<Result>, name = "flow") {
  return defineWorkflow({ name, description: "A workflow a core test drives.", run: (wf) => run(wf) });
}

/** A workflow named `name` with no args that declares `events`, whose run is `run`. */
export function eventFlow<Events extends EventSchemas, Result>(name: string, events: Events, run: (wf: WorkflowContext<Events>) => Promise<Result>) {
  return defineWorkflow({ name, description: "A workflow a core test sends events to.", events, run: (wf) => run(wf) });
}

/** Opens a claude agent for each key, one after the other. */
export async function openAgents<const Keys extends readonly string[]>(wf: WorkflowContext, ...keys: Keys): Promise<{ [Index in keyof Keys]: AgentRef }> {
  const agents: AgentRef[] = [];
  for (const key of keys) agents.push(await wf.agents.open({ key, runtime: "claude" }));
  return agents as { [Index in keyof Keys]: AgentRef };
}

/**
 * The participants page's `investigate`: connects the coordinator, a session the run did not start,
 * opens the investigator, allows `route` between them, then returns what `then` makes of it.
 */
export function investigating<Result>(
  then: (investigator: AgentRef, wf: WorkflowContext) => Promise<Result>,
  route: RouteSpec = { between: ["investigator", "coordinator"], purpose: "questions about the incidents" },
) {
  return defineWorkflow({
    name: "investigate",
    description: "Investigates the checkout incidents, asking the coordinator what it cannot decide.",
    async run(wf) {
      await wf.participants.connect({ key: "coordinator" });
      const [investigator] = await openAgents(wf, "investigator");
      await wf.messages.allow(route);
      return then(investigator, wf);
    },
  });
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

/** The first line of the stack `call` threw, in a run like `refusal`'s, that is in a test's own folder: where the refusal was thrown from. */
export async function refusalFrame(call: (wf: WorkflowContext, a: AgentRef) => unknown): Promise<string> {
  const workflow = flow(async (wf) => {
    const [a] = await openAgents(wf, "a");
    await a.run({ prompt: "Plan." });
    try {
      await call(wf, a);
      return "accepted";
    } catch (error) {
      return ((error as Error).stack ?? "").split("\n").find((line) => line.includes("/test/")) ?? "no frame";
    }
  }, "refusing");
  return (await testWorkflow(workflow, { agents: { a: answer("planned") } })).value;
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
  const workflow = eventFlow("refusing", { note: NOTE }, async (wf) => {
    const [a] = await openAgents(wf, "a");
    await a.run({ prompt: "Plan." });
    try {
      await call(wf, a);
      return "accepted";
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  });
  return (await testWorkflow(workflow, { agents: { a: answer("planned") }, caller: { harness: "claude", model: "opus" } })).value;
}
