// Continuing an earlier attempt: the stages it reuses or is given (`values`), where a redo starts
// (`fromStage`), the stop that lists what a start at a stage needs, and waits replaying what the
// earlier attempt's waits took, from its run.jsonl and in.jsonl.

import type { TSchema } from "typebox";
import { checkAnswer } from "./answerCheck.ts";
import type { Attempt } from "./attempt.ts";
import { StopSignal } from "./errors.ts";
import type { JsonValue } from "./json.ts";
import { appendRunLine, asJson, recordOfStageLine, stageLine } from "./runLog.ts";
import type { RunLine, StageRecord } from "./runLines.ts";
import type { ReceivedEvent } from "./types.ts";
import type { EventInbox } from "./events.ts";
import type { ReplayedWait, WaitSpec } from "./waits.ts";
import { quoted, suggestName } from "./unknownOptions.ts";

/**
 * A stage's value from values or the earlier attempt, judged as the stage's own result would be:
 * a copy of it, or the refusal that fails the attempt at that stage.
 */
function checkStageValue(
  attempt: Attempt,
  name: string,
  result: TSchema | undefined,
  given: JsonValue | undefined,
  source: "values" | "the earlier attempt",
): JsonValue | undefined {
  const refuse = (message: string) => {
    attempt.failedStage ??= name;
    return attempt.violate(message);
  };
  const gives = source === "values" ? "values gives" : "the earlier attempt gives";
  if (result === undefined && given !== undefined) throw refuse(`${gives} stage ${name} a value, but it has no result schema, so it returns nothing`);
  if (result === undefined) return undefined;
  if (given === undefined) throw refuse(`${gives} stage ${name} no value, but it returns one (its result)`);
  const value = JSON.parse(JSON.stringify(given)) as JsonValue;
  const verdict = checkAnswer(result, JSON.stringify(value));
  if (!verdict.accepted) throw refuse(`stage ${name}'s value in ${source} does not fit its result: ${verdict.error}`);
  return value;
}

/** What a wait finds under its number in the earlier lines. */
type WaitReplay =
  | { kind: "took"; eventId: string; due?: string }
  | { kind: "fired"; due?: string }
  | { kind: "pending"; due: string }
  | { kind: "mismatch"; message: string };

interface EarlierWait {
  label: string;
  took?: { eventId: string } | "timeout";
  timer?: { due: string; state: "pending" | "fired" | "cancelled" };
}

const describeSchema = (schema: TSchema) => JSON.stringify(schema);

export class Continuation {
  /** The latest record of each stage in the earlier lines (or given), and the waits it made. */
  private readonly records = new Map<string, { record: StageRecord; waits: number }>();
  private readonly earlierWaits = new Map<number, EarlierWait>();
  /** Waits numbered above this are not replayed: the redo from fromStage begins there. */
  private replayUpTo = Number.POSITIVE_INFINITY;
  private fromStageEntered = false;
  /** The stage records this attempt reused, so its ending can say so. */
  readonly reused = new WeakSet<StageRecord>();

  constructor(private readonly attempt: Attempt & { readonly inbox: EventInbox }) {}

  get isContinue(): boolean {
    return this.attempt.settings.earlier !== undefined;
  }

  /**
   * Lays out what the earlier attempt left: its run lines (and the stage records given apart from
   * them, as lines), and its events, those no wait took still unread.
   */
  restore(): void {
    const { earlier } = this.attempt.settings;
    if (!earlier) return;
    const attempt = this.attempt;
    const lines = earlier.runLines ?? [];
    attempt.runLog.push(...lines);
    const taken = new Set<string>();
    for (const line of lines) {
      if (line.kind === "stage") this.records.set(line.name, { record: recordOfStageLine(line), waits: line.waits });
      if (line.kind === "attempt" && line.starts && line.event !== undefined) taken.add(line.event);
      if (line.kind === "timer" || line.kind === "wait") {
        const wait = this.earlierWaits.get(line.wait) ?? { label: line.label };
        wait.label = line.label;
        if (line.kind === "timer") wait.timer = { due: line.due, state: line.state };
        else {
          wait.took = line.took;
          if (line.took !== "timeout") taken.add(line.took.eventId);
        }
        this.earlierWaits.set(line.wait, wait);
      }
    }
    for (const record of earlier.stages ?? []) {
      const known = this.records.get(record.name);
      if (known && JSON.stringify(known.record) === JSON.stringify(record)) continue;
      this.records.set(record.name, { record, waits: 0 });
      // Written as lines too, so this attempt's run.jsonl continues on its own.
      attempt.runLog.push(stageLine(record, 0));
    }
    const events = earlier.events ?? [];
    attempt.inbox.restore(
      events,
      events.filter((event) => !taken.has(event.eventId)),
    );
  }

  /** Writes the attempt's first line, and closes each turn the earlier lines began and never ended. */
  begin(event: ReceivedEvent | null, starts: boolean, args?: unknown): void {
    const attempt = this.attempt;
    const { fromStage, runId } = attempt.settings;
    const jsonArgs = args === null ? undefined : asJson(args);
    appendRunLine(attempt, {
      kind: "attempt",
      at: attempt.nowIso(),
      ...(event ? { event: event.eventId } : {}),
      ...(event && starts ? { starts: true as const } : {}),
      ...(fromStage !== undefined ? { fromStage } : {}),
      id: runId,
      ...(jsonArgs !== undefined ? { args: jsonArgs } : {}),
    });
    const open = new Map<string, Extract<RunLine, { kind: "turn-begun" }>>();
    for (const line of attempt.runLog) {
      if (line.kind === "turn-begun") open.set(`${line.attempt}/${line.op}`, line);
      if (line.kind === "turn-ended") open.delete(`${line.attempt}/${line.op}`);
    }
    for (const begun of open.values()) {
      // As after a crash: the attempt that began the turn ended without hearing how it ended.
      appendRunLine(
        attempt,
        {
          kind: "turn-ended",
          op: begun.op,
          agent: begun.agent,
          n: begun.n,
          end: "failed",
          reason: `attempt ${begun.attempt} ended before the turn did; closed as attempt ${attempt.settings.attempt} began`,
          at: attempt.nowIso(),
        },
        begun.attempt,
      );
    }
  }

  /**
   * Decides a stage as it is entered: undefined to run its work; else the value it returns without
   * running (reused, or given in `values`). Throws the stop that lists what a start at a stage needs.
   */
  enterStage(name: string, result: TSchema | undefined): { value: JsonValue | undefined } | undefined {
    const attempt = this.attempt;
    const { fromStage, values } = attempt.settings;
    if (fromStage !== undefined && name === fromStage) {
      // Redone from here: its record and later ones are not reused, nor are the waits they made.
      this.fromStageEntered = true;
      this.replayUpTo = attempt.waitSequence;
      return undefined;
    }
    if (this.fromStageEntered) return undefined;
    const earlier = this.records.get(name);
    if (earlier && earlier.record.outcome === "succeeded") {
      // The stage's current result judges the value, as it judges one given in values: a record
      // from before the schema changed (or a test's earlier.stages) must not reach the code as typed.
      checkStageValue(attempt, name, result, earlier.record.value, "the earlier attempt");
      attempt.stages.push(earlier.record);
      this.reused.add(earlier.record);
      // Its waits are not made again; later waits keep the numbers the earlier lines gave them.
      attempt.waitSequence += earlier.waits;
      return { value: earlier.record.value };
    }
    if (fromStage === undefined) return undefined;
    if (values && Object.hasOwn(values, name)) return { value: this.provide(name, result, values[name]) };
    // A stage that returns nothing needs no value: it is taken as done.
    if (result === undefined) return { value: this.provide(name, undefined, undefined) };
    const needs = this.needs(name, result);
    const reason =
      `stage ${fromStage} is where this attempt starts, and the stages before it need values: ` +
      `${needs.map(([stage, schema]) => `${stage} (result ${describeSchema(schema)})`).join(", ")}; give them in values, as awf run --values does` +
      this.nearestToFromStage();
    attempt.stopRequested ??= { reason, stage: name };
    throw new StopSignal(reason, name);
  }

  private provide(name: string, result: TSchema | undefined, given: JsonValue | undefined): JsonValue | undefined {
    const attempt = this.attempt;
    const value = checkStageValue(attempt, name, result, given, "values");
    const now = attempt.nowIso();
    const record: StageRecord = {
      name,
      outcome: "succeeded",
      attempt: attempt.settings.attempt,
      started: now,
      at: now,
      ...(value !== undefined ? { value } : {}),
      provided: true,
    };
    attempt.stages.push(record);
    attempt.runLog.push(stageLine(record, 0));
    return value;
  }

  /**
   * Why the attempt ends stopped as the workflow returns, when fromStage was never entered: a
   * misspelt or moved stage would otherwise reuse every record and pass as a redo.
   */
  fromStageUnreached(): string | undefined {
    const { fromStage } = this.attempt.settings;
    if (fromStage === undefined || this.fromStageEntered) return undefined;
    const entered = [...this.attempt.enteredStages];
    const went = entered.length ? `it entered ${quoted(entered)}` : "it entered no stage";
    return `fromStage "${fromStage}" is a stage this attempt never reached: ${went} and returned${this.nearestToFromStage()}`;
  }

  /** `; did you mean "<stage>"?` when fromStage is no stage the run knows (entered, recorded or declared) and one is near it. */
  private nearestToFromStage(): string {
    const { fromStage, declaredStages } = this.attempt.settings;
    const known = [...new Set([...this.attempt.enteredStages, ...this.records.keys(), ...Object.keys(declaredStages ?? {})])];
    if (fromStage === undefined || known.includes(fromStage)) return "";
    const suggestion = suggestName(fromStage, known);
    return suggestion ? `; did you mean "${suggestion}"?` : "";
  }

  /** The stages before fromStage that need a value: every declared one, or the one entered when none are declared. */
  private needs(entered: string, result: TSchema): Array<[string, TSchema]> {
    const { declaredStages, fromStage, values } = this.attempt.settings;
    const names = declaredStages ? Object.keys(declaredStages) : [];
    const end = names.indexOf(fromStage!);
    if (!declaredStages || end < 0) return [[entered, result]];
    const needs: Array<[string, TSchema]> = [];
    for (const name of names.slice(0, end)) {
      const schema = name === entered ? result : declaredStages[name];
      // Stages entered before this one were reused or given; one that returns nothing needs no value.
      if (!schema || (this.attempt.enteredStages.has(name) && name !== entered)) continue;
      if (this.records.get(name)?.record.outcome === "succeeded") continue;
      if (values && Object.hasOwn(values, name)) continue;
      needs.push([name, schema]);
    }
    if (!needs.some(([name]) => name === entered)) needs.unshift([entered, result]);
    return needs;
  }

  /** What wait `sequence` took in the earlier lines, if they have it. */
  private replayOf(sequence: number, label: string): WaitReplay | undefined {
    if (sequence > this.replayUpTo) return undefined;
    const earlier = this.earlierWaits.get(sequence);
    if (!earlier) return undefined;
    if (earlier.label !== label) {
      return {
        kind: "mismatch",
        message:
          `wait ${sequence} is "${label}" in this attempt, but "${earlier.label}" in the run's lines: ` +
          "a continue replays the waits in the order the earlier attempt made them, and the workflow's waits no longer match them",
      };
    }
    const due = earlier.timer?.due;
    if (earlier.took !== undefined && earlier.took !== "timeout") return { kind: "took", eventId: earlier.took.eventId, ...(due ? { due } : {}) };
    if (earlier.took === "timeout" || earlier.timer?.state === "fired") return { kind: "fired", ...(due ? { due } : {}) };
    if (earlier.timer?.state === "pending") return { kind: "pending", due: earlier.timer.due };
    // Ended some other way (cancelled with its scope, or answered by a person): made again.
    return undefined;
  }

  /**
   * A wait as a continue replays it: settled at once with what the earlier lines say it took, or
   * going on with the due time its still-pending timer had; `replayed: false` for a wait they don't have.
   */
  replayWait<T>(sequence: number, spec: WaitSpec<T>): ReplayedWait<T> {
    const attempt = this.attempt;
    const replay = this.isContinue ? this.replayOf(sequence, spec.label) : undefined;
    if (!replay) return { replayed: false, until: spec.until };
    const refuse = (why: string) => ({ settled: Promise.reject<T>(attempt.violate(`wait ${sequence} ("${spec.label}") ${why}`)) });
    const record = (due: string | undefined, state: "fired" | "cancelled") => {
      if (due !== undefined) attempt.timers.push({ label: spec.label, due, state, kind: spec.kind });
    };
    switch (replay.kind) {
      case "mismatch":
        return { settled: Promise.reject<T>(attempt.violate(replay.message)) };
      case "took": {
        if (!spec.replayTake) return refuse(`took event "${replay.eventId}" in the run's lines, but in this attempt it waits on no event`);
        const taken = spec.replayTake(replay.eventId);
        if ("why" in taken) return refuse(taken.why);
        record(replay.due, "cancelled");
        return { settled: Promise.resolve(taken.value) };
      }
      case "fired":
        if (!spec.onUntil) return refuse("ended at its until in the run's lines, but in this attempt it has no until");
        record(replay.due, "fired");
        return { settled: Promise.resolve().then(() => spec.onUntil!()) };
      case "pending":
        if (spec.until === undefined) return refuse("has a timer still pending in the run's lines, but in this attempt it has no until");
        return { replayed: true, until: Date.parse(replay.due) };
      default:
        return replay satisfies never;
    }
  }
}
