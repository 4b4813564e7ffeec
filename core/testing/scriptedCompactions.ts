// The scripted host's compactions: each compaction the engine asks is met by the agent's
// `compactions` script, walked like `agents` but counted among its compactions, `""` by default.

import type { Moment } from "../workflow/clock.ts";
import type { HostEnd, TurnOperation } from "../workflow/host.ts";
import { firstLine } from "../workflow/json.ts";
import type { Outcome } from "../workflow/types.ts";
import { NO_ANSWER_KINDS, noAnswerEnd } from "./noAnswerKinds.ts";
import { scriptReply } from "./scriptReply.ts";
import { describe, isAnswer, isNoAnswer, type Entry, type NoAnswer } from "./entries.ts";
import { plural } from "./problems.ts";
import type { ScriptBook } from "./scripts.ts";
import type { CompactionTrace, ProblemTrace, SourceSite } from "./trace.ts";
import type { Turn } from "./turn.ts";

/** A compaction as `run.compactionsOf(key)` reads it back. */
export interface CompactionRecord {
  agent: string;
  /** 1-based among the agent's compactions. */
  n: number;
  /** The id the workflow gave it, else `compaction-<n>`. */
  id: string;
  /** The prompt the workflow gave it: what the summary keeps. */
  focus: string;
  outcome: Outcome["kind"];
}

const never = new Promise<never>(() => {});

/** `agent "<k>" compaction <n>: <why>[. It was asked: <focus>]`, with the problem's data. */
export function compactionProblem(code: ProblemTrace["code"], operation: TurnOperation, why: string, extra: Partial<ProblemTrace> = {}, withFocus = true): ProblemTrace {
  const head = `agent "${operation.agent}" compaction ${operation.n}: ${why}`;
  return {
    code,
    message: withFocus ? `${head}. It was asked: ${firstLine(operation.prompt)}` : head,
    agent: operation.agent,
    compaction: operation.n,
    prompt: operation.prompt,
    option: "compactions",
    ...extra,
  };
}

const noMessages = () => Promise.reject(new Error("a compaction sends no messages"));

export class ScriptedCompactions {
  readonly records: CompactionRecord[] = [];
  readonly traces: CompactionTrace[] = [];
  /** When each of `traces` started and ended, by index (the timeline's). */
  readonly moments: Array<{ started: Moment; ended?: Moment }> = [];
  /** Now, as the timeline orders things; testWorkflow sets it once the attempt starts. */
  moment: (() => Moment) | undefined;
  private readonly byOperation = new Map<number, { record: CompactionRecord; trace: CompactionTrace; moments?: { started: Moment; ended?: Moment } }>();

  constructor(
    private readonly book: ScriptBook,
    private readonly fail: (problem: ProblemTrace) => void,
    /** Told a script function reads a compaction's cwd, so the test's folder is made first. */
    private readonly folderUsed?: (path: string) => void,
  ) {}

  /** Compaction lists walked short of their end, and lists no compaction reached. */
  leftovers(): ProblemTrace[] {
    return this.book.leftovers();
  }

  settle(operation: TurnOperation, outcome: Outcome): void {
    const held = this.byOperation.get(operation.id);
    if (!held) return;
    if (held.moments && this.moment) held.moments.ended = this.moment();
    held.record.outcome = outcome.kind;
    held.trace.outcome = outcome.kind;
    if (outcome.kind !== "answered") held.trace.reason = outcome.reason;
  }

  async run(operation: TurnOperation): Promise<HostEnd> {
    const record: CompactionRecord = {
      agent: operation.agent,
      n: operation.n,
      id: operation.compactionId ?? `compaction-${operation.n}`,
      focus: operation.prompt,
      outcome: "cancelled",
    };
    const trace: CompactionTrace = { agent: operation.agent, n: operation.n, focus: operation.prompt, outcome: "cancelled" };
    this.records.push(record);
    this.traces.push(trace);
    const moments = this.moment ? { started: this.moment() } : undefined;
    if (moments) this.moments.push(moments);
    this.byOperation.set(operation.id, { record, trace, ...(moments ? { moments } : {}) });

    const found = this.book.find(operation.agent);
    if (!found.found) {
      // An agent with no compaction script has every compaction answer "": only a conflict is a mistake.
      if (found.code !== "glob-conflict") return this.submit(operation, "");
      return this.failWith(compactionProblem(found.code, operation, found.why, { ...(found.patterns ? { patterns: found.patterns } : {}) }));
    }
    const pattern = found.pattern;
    const walked = this.book.entryFor(operation.agent, found.slot, pattern, operation.n);
    if (!walked) {
      const sites = found.slot.entries.map((entry) => entry.site).filter((site): site is SourceSite => !!site);
      return this.failWith(
        compactionProblem(
          "list-exhausted",
          operation,
          `its compaction script${pattern ? ` ("${pattern}")` : ""} has ${plural(found.slot.entries.length, "compaction")}`,
          { key: found.slot.key, ...(pattern ? { pattern } : {}), index: operation.n - 1, sites, ...(sites.length ? { site: sites[sites.length - 1]! } : {}) },
        ),
      );
    }
    const { entry, index } = walked;
    const site = entry.site;
    trace.match = { option: "compactions", key: found.slot.key, ...(pattern ? { pattern } : {}), index, nudge: false, ...(site ? { site } : {}) };
    const at: Partial<ProblemTrace> = { key: found.slot.key, ...(pattern ? { pattern } : {}), index, ...(site ? { site } : {}) };
    return this.meet(operation, entry, at);
  }

  private async meet(operation: TurnOperation, entry: Entry, at: Partial<ProblemTrace>): Promise<HostEnd> {
    if (isNoAnswer(entry)) return this.noAnswer(operation, entry, at);
    if (!isAnswer(entry)) return this.failWith(compactionProblem("script-invalid", operation, `its script is not an entry: ${describe(entry)}`, at));
    const reply = await scriptReply(
      entry,
      () => this.turnFor(operation),
      () => operation.signal,
    );
    if (reply.kind === "cancelled") return { kind: "cancelled", reason: "the engine cancelled the compaction" };
    if (reply.kind === "no-answer") return this.noAnswer(operation, reply.entry, at);
    if (reply.kind === "mistake") {
      return this.failWith(compactionProblem(reply.code, operation, reply.why, { ...at, ...(reply.thrownAt ? { thrownAt: reply.thrownAt } : {}) }));
    }
    const value = reply.value;
    if (typeof value !== "string") {
      return this.failWith(compactionProblem("compaction-not-text", operation, `its compaction script answers a summary, text, not ${describe(value)}`, at, false));
    }
    return this.submit(operation, value);
  }

  private submit(operation: TurnOperation, summary: string): HostEnd {
    const verdict = operation.submit(summary);
    if (!verdict.accepted) return { kind: "cancelled", reason: "the engine cancelled the compaction" };
    const held = this.byOperation.get(operation.id);
    if (held) held.trace.answer = summary;
    return { kind: "submitted" };
  }

  private noAnswer(operation: TurnOperation, entry: NoAnswer, at: Partial<ProblemTrace>): Promise<HostEnd> | HostEnd {
    const held = this.byOperation.get(operation.id);
    if (held && NO_ANSWER_KINDS[entry.kind].scriptsItsEnd) held.trace.scripted = true;
    return (
      noAnswerEnd(operation, entry, "compaction") ??
      this.failWith(compactionProblem("compaction-interrupted", operation, "a compaction is not interrupted by the operator", at, false))
    );
  }

  private failWith(problem: ProblemTrace): Promise<never> {
    this.fail(problem);
    return never;
  }

  /** What a compaction script's function gets: the compaction as a turn, its focus as the prompt. */
  private turnFor(operation: TurnOperation): Turn {
    const folderUsed = this.folderUsed;
    return {
      agent: operation.agent,
      n: operation.n,
      nudge: false,
      prompt: operation.prompt,
      ...(operation.stage !== undefined ? { stage: operation.stage } : {}),
      // A getter: the script may write there, so the test's folder is made once it asks.
      get cwd() {
        folderUsed?.(operation.cwd);
        return operation.cwd;
      },
      model: operation.execution.model,
      ...(operation.execution.effort !== undefined ? { effort: operation.execution.effort } : {}),
      messages: [],
      signal: operation.signal,
      send: noMessages,
      reply: noMessages,
      tool: noMessages,
    };
  }
}
