// fakeClient(script?): a Client for a program's test. It runs the real client's file-free checks
// and rules (core/client) over runs it keeps in memory, lets a script say what a call came to,
// and keeps every call in `calls`.

import { checkEmit, checkInbox, checkReply, checkStart, checkWait, runKey, takesEvents, type CheckedEvent } from "../client/clientChecks.ts";
import { ClientError } from "../client/clientError.ts";
import {
  afterEmit,
  afterRest,
  afterStart,
  emitKeeps,
  emitResult,
  emitSays,
  restOf,
  sameArgs,
  startResult,
  startSays,
  type EmitSaid,
  type RunFacts,
  type StartSaid,
} from "../client/clientRules.ts";
import type { AnyWorkflow, Client, EmitCall, EmitResult, InboxCall, InboxItem, ReplyCall, Rest, StartCall, StartResult, WaitCall } from "../client/types.ts";
import { isWorkflow } from "../workflow/define.ts";
import type { JsonValue } from "../workflow/json.ts";
import { callSiteOf } from "./callSite.ts";
import {
  FakeClientError,
  readFakeClientScript,
  scriptProblem,
  shownValue,
  whyNotInboxItems,
  whyNotScriptedEmit,
  whyNotScriptedStart,
  type FakeClientScript,
  type ScriptedEmit,
  type ScriptedRest,
  type ScriptedStart,
} from "./fakeClientScript.ts";
import type { SourceSite } from "./trace.ts";

export type { FakeClientScript, ScriptedEmit, ScriptedRest, ScriptedStart, EmitSeen, StartSeen, InboxSeen } from "./fakeClientScript.ts";
export { FakeClientError } from "./fakeClientScript.ts";

/** One call the fake was given, as given, with what it came to: `result`, or `error` when it threw. */
export type FakeClientCall =
  | ({ call: "start"; workflow?: string; id?: string; args?: unknown } & Came<StartResult>)
  | ({ call: "emit"; workflow?: string; id?: string; name?: string; data?: unknown; eventId?: string } & Came<EmitResult>)
  | ({ call: "wait"; workflow?: string; id?: string } & Came<Rest>)
  | ({ call: "inbox"; participant?: string; workflow?: string; id?: string } & Came<InboxItem[]>)
  | ({ call: "reply"; workflow?: string; id?: string; participant?: string; text?: string; to?: string; eventId?: string } & Came<EmitResult>);

type Came<Result> = { result?: Result; error?: Error };

export interface FakeClient extends Client {
  /** Every call in order, refused ones (a ClientError) included. */
  readonly calls: readonly FakeClientCall[];
}

/** What a start said about a run's args: these, other than these, or not known (a run an event or a wait made). */
type ArgsKnown = { these: JsonValue } | { otherThan: JsonValue } | undefined;

interface FakeRun {
  workflow: AnyWorkflow;
  facts: RunFacts;
  args: ArgsKnown;
  /** Event ids kept in its in.jsonl, so the same id sent again is a duplicate. */
  eventIds: Set<string>;
  /** The rest a wait last gave, given again while the run stays there. */
  rest?: Rest;
}

/** A Client for a test: unscripted, it answers as the real client's rules do. */
export function fakeClient(script?: FakeClientScript): FakeClient {
  const site = callSiteOf(fakeClient);
  return new Fake(readFakeClientScript(script, site), site);
}

class Fake implements FakeClient {
  readonly calls: FakeClientCall[] = [];
  private readonly runs = new Map<string, FakeRun>();
  private readonly rests = new Map<string, ScriptedRest[]>();
  private madeIds = 0;
  private madeEventIds = 0;

  constructor(
    private readonly script: FakeClientScript,
    private readonly site: SourceSite | undefined,
  ) {
    for (const [key, list] of Object.entries(script.rests ?? {})) this.rests.set(key, [...list]);
  }

  async start<Args>(call: StartCall<Args>): Promise<StartResult> {
    const given = fieldsOf(call);
    const record: FakeClientCall = { call: "start", ...named(given), ...givenFields(given, ["id", "args"]) };
    return this.recorded(record, async () => {
      const checked = checkStart(call, () => `fake-${++this.madeIds}`);
      Object.assign(record, { id: checked.id, args: checked.args });
      const key = runKey(checked.workflow, checked.id);
      const run = this.runs.get(key);
      const scripted = await this.ask("start", { workflow: checked.workflow.name, id: checked.id, args: checked.args }, whyNotScriptedStart, `start ${key}`);
      const said: StartSaid = (scripted as ScriptedStart | undefined) ?? startSays(run?.facts, argsMatch(run?.args, checked.args), key);
      const facts = afterStart(run?.facts, said);
      if (run) {
        run.facts = facts;
        if (said.did === "started") run.args = { these: checked.args };
      } else {
        this.runs.set(key, {
          workflow: checked.workflow,
          facts,
          args: said.did === "other-args" ? { otherThan: checked.args } : { these: checked.args },
          eventIds: new Set(),
        });
      }
      return startResult(said, checked.id);
    });
  }

  async emit(call: EmitCall): Promise<EmitResult> {
    const given = fieldsOf(call);
    const record: FakeClientCall = { call: "emit", ...named(given), ...givenFields(given, ["id", "name", "data", "eventId"]) };
    return this.recorded(record, () => this.deliver(checkEmit(call)));
  }

  async reply(call: ReplyCall): Promise<EmitResult> {
    const given = fieldsOf(call);
    const record: FakeClientCall = { call: "reply", ...named(given), ...givenFields(given, ["id", "participant", "text", "to", "eventId"]) };
    return this.recorded(record, () => {
      const checked = checkReply(call);
      const key = runKey(checked.workflow, checked.id);
      if (!this.runs.has(key)) throw new ClientError("no-run", `reply to ${key}: there is no run ${key} to reply to`);
      return this.deliver(checked);
    });
  }

  async wait(call: WaitCall): Promise<Rest> {
    const given = fieldsOf(call);
    const record: FakeClientCall = { call: "wait", ...named(given), ...givenFields(given, ["id"]) };
    return this.recorded(record, async () => {
      const { workflow, id } = checkWait(call);
      const key = runKey(workflow, id);
      const run = this.runs.get(key);
      const next = this.rests.get(key)?.shift();
      if (next) {
        const rest = restOf(next.state, takesEvents(workflow), next.final);
        const facts = afterRest(run?.facts, next.state);
        if (run) Object.assign(run, { facts, rest });
        else this.runs.set(key, { workflow, facts, args: undefined, eventIds: new Set(), rest });
        return rest;
      }
      if (!run) throw new ClientError("no-run", `wait on ${key}: there is no run ${key}`);
      if (run.facts.state === "running") {
        const scripted = this.script.rests?.[key]?.length ?? 0;
        throw new FakeClientError([
          scriptProblem(
            "fake-client-no-rest",
            `fakeClient: wait on ${key}: the run is running and rests has no rest left for it (${scripted === 0 ? "it scripts none" : `its ${scripted} were taken`}); add one to rests["${key}"]`,
            this.site,
            { option: "rests", key },
          ),
        ]);
      }
      const state = run.facts.state;
      return run.rest?.state === state ? run.rest : restOf(state, takesEvents(workflow));
    });
  }

  async inbox(call?: InboxCall): Promise<InboxItem[]> {
    const given = call === undefined ? {} : fieldsOf(call);
    const record: FakeClientCall = { call: "inbox", ...givenFields(given, ["participant"]), ...named(given), ...givenFields(given, ["id"]) };
    return this.recorded(record, async () => {
      const checked = checkInbox(call);
      if (!this.script.inbox) return [];
      const seen = {
        ...(checked.participant !== undefined ? { participant: checked.participant } : {}),
        ...(checked.workflow ? { workflow: checked.workflow.name } : {}),
        ...(checked.id !== undefined ? { id: checked.id } : {}),
      };
      const items = await this.ask("inbox", seen, whyNotInboxItems, "inbox");
      return [...(items as InboxItem[])];
    });
  }

  /** An event (or a reply's) that passed the checks: what it says, and where the run is after it. */
  private async deliver(event: CheckedEvent): Promise<EmitResult> {
    const key = runKey(event.workflow, event.id);
    const run = this.runs.get(key);
    const eventId = event.eventId ?? `fake-event-${++this.madeEventIds}`;
    const seen = { workflow: event.workflow.name, id: event.id, name: event.name, data: event.data, ...(event.eventId !== undefined ? { eventId: event.eventId } : {}) };
    const scripted = (await this.ask("emit", seen, whyNotScriptedEmit, `emit to ${key}`)) as ScriptedEmit | undefined;
    const said: EmitSaid = scripted
      ? { did: scripted.did ?? "none", ...(scripted.why !== undefined ? { why: scripted.why } : {}) }
      : emitSays(run?.facts, { resent: run?.eventIds.has(eventId) ?? false, mayStart: event.mayStart });
    const facts = afterEmit(run?.facts, said);
    if (facts) {
      const kept = run ?? { workflow: event.workflow, facts, args: undefined, eventIds: new Set<string>() };
      kept.facts = facts;
      if (emitKeeps(said)) kept.eventIds.add(eventId);
      this.runs.set(key, kept);
    }
    return emitResult(said);
  }

  /** Calls a hook; what it gives must pass `check`, and a hook that throws fails the test. */
  private async ask(hook: "emit" | "start" | "inbox", seen: unknown, check: (given: unknown) => string | undefined, what: string): Promise<unknown> {
    const script = this.script[hook] as ((call: unknown) => unknown) | undefined;
    if (!script) return undefined;
    let given: unknown;
    try {
      given = await script(seen);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new FakeClientError([scriptProblem("fake-client-script-threw", `fakeClient's ${hook} script threw for ${what}: ${message}`, this.site, { option: hook })], {
        cause: error,
      });
    }
    const why = check(given);
    if (why) throw new FakeClientError([scriptProblem("fake-client-script-invalid", `fakeClient's ${hook} script, for ${what}: ${why}`, this.site, { option: hook })]);
    return given;
  }

  /** Runs a call with its record already in `calls`, and keeps what it came to. */
  private async recorded<Result>(record: FakeClientCall, work: () => Result | Promise<Result>): Promise<Result> {
    this.calls.push(record);
    try {
      const result = await work();
      (record as Came<Result>).result = result;
      return result;
    } catch (error) {
      record.error = error as Error;
      throw error;
    }
  }
}

function argsMatch(known: ArgsKnown, args: JsonValue): boolean {
  if (known === undefined) return true;
  return "these" in known ? sameArgs(known.these, args) : !sameArgs(known.otherThan, args);
}

function fieldsOf(call: unknown): Record<string, unknown> {
  return typeof call === "object" && call !== null ? (call as Record<string, unknown>) : {};
}

/** The call's workflow, by name, as `calls` keeps it. */
function named(given: Record<string, unknown>): { workflow?: string } {
  if (given.workflow === undefined) return {};
  return { workflow: isWorkflow(given.workflow) ? given.workflow.name : shownValue(given.workflow) };
}

/** The fields of a call that were given, as `calls` keeps them. */
function givenFields(given: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => given[name] !== undefined).map((name) => [name, given[name]]));
}
