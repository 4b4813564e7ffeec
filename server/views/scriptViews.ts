// The one view of what a run met, which the inlay hints and the hovers both read, by the script
// that met it: turns and compactions on their entries, wakes on their `messages` entry, scripted
// events on their `events` element, participant calls and decisions on their key.

import type { Position, Range } from "vscode-languageserver";
import type { Site } from "../../core/execution/report.ts";
import { noAnswerKindOf } from "../../core/testing/entries.ts";
import { NO_ANSWER_KINDS } from "../../core/testing/noAnswerKinds.ts";
import type { CompactionTrace, DecisionTrace, MatchTrace, MessageTrace, ParticipantEventTrace, RunTrace, TurnTrace } from "../../core/testing/trace.ts";
import { entryByKey, scriptsOfOption } from "../analysis/analyzeTestFile.ts";
import type { StaticEntry, StaticTestWorkflowCall } from "../analysis/model.ts";
import { compareRangeStarts } from "../analysis/ranges.ts";

/** One scripted event of the `events` option, as the run traced it. */
export type EventTrace = NonNullable<RunTrace["events"]>[number];

/** One thing a script met in one run, with the test that ran it (its path joined by " › "). */
export type Met =
  /**
   * `passed`: the test the run belongs to did not fail (a hint marks an outcome that went wrong ✗
   * only then); `scripted`: the entry met is a `noAnswer.…()` one.
   */
  | { kind: "turn"; turn: TurnTrace; test: string; passed: boolean; scripted: boolean }
  | { kind: "compaction"; compaction: CompactionTrace; test: string; passed: boolean }
  | { kind: "wake"; message: MessageTrace; test: string; passed: boolean }
  | { kind: "event"; event: EventTrace; refused: boolean; test: string; passed: boolean }
  | { kind: "participant"; call: ParticipantEventTrace; test: string; passed: boolean }
  | { kind: "decision"; decision: DecisionTrace; test: string; passed: boolean };

export type MetKind = Met["kind"];

/** The things of one kind. */
export type MetOf<Kind extends MetKind> = Extract<Met, { kind: Kind }>;

/** Everything of one kind that one script (an entry, an events element, a participants or decisions key) met. */
export interface ScriptView {
  kind: MetKind;
  /** What a hover covers: the entry, the events element, or the whole `key: script` property. */
  range: Range;
  /** The line whose end the hint goes on: the entry's or element's first line, the key's. */
  line: number;
  /** Where the hint goes instead on a line too long to see its end: after the entry's callee (`answer`, `noAnswer.silent`). */
  anchor?: Position;
  met: Met[];
}

/** The things of `kind` among `met` (a view's, or several views' of one kind joined). */
export function metOf<Kind extends MetKind>(met: readonly Met[], kind: Kind): Array<MetOf<Kind>> {
  return met.filter((one): one is MetOf<Kind> => one.kind === kind);
}

/** The converter's lookup of a runtime site: the entry there, preferring the call of `testIndex`. */
export type EntryAtSite = (site: Site | undefined, testIndex: number | undefined) => { entry: StaticEntry } | undefined;

export class ScriptViews {
  /** By script, then kind: a script met by turns and by something else has a view of each. */
  private readonly byScript = new Map<object, Map<MetKind, ScriptView>>();

  constructor(private readonly entryAt: EntryAtSite) {}

  /** Adds what one run met; `call` is its testWorkflow call in this file, when the static pass found one. */
  add(run: RunTrace, call: StaticTestWorkflowCall | undefined, testIndex: number | undefined, test: string, passed = true): void {
    for (const turn of run.turns) {
      // A wake is shown on its messages entry with the message that caused it (below), not as a turn.
      if (turn.match?.option === "messages") continue;
      const entry = this.entryAt(turn.match?.site, testIndex)?.entry;
      // `noAnswer.hang()` scripts no ending (its kind's `scriptsItsEnd`): whatever ends its turn (a deadline, the stall guard) did.
      const entryKind = (entry?.definition ?? entry)?.kind ?? "";
      const kind = noAnswerKindOf(entryKind);
      const scripted = turn.scripted === true || (entryKind.startsWith("noAnswer") && (kind === undefined || NO_ANSWER_KINDS[kind].scriptsItsEnd));
      if (entry) this.meet(entry, entry.range, { kind: "turn", turn, test, passed, scripted });
    }
    for (const compaction of run.compactions ?? []) {
      const entry = this.entryOf(compaction.match, call, testIndex);
      if (entry) this.meet(entry, entry.range, { kind: "compaction", compaction, test, passed });
    }
    for (const message of run.messages ?? []) {
      const entry = this.entryOf(message.match, call, testIndex);
      if (entry) this.meet(entry, entry.range, { kind: "wake", message, test, passed });
    }
    const elements = call?.events?.elements ?? [];
    for (const event of run.events ?? []) {
      // `RunTrace.events[i].index` counts from 1; a problem's `index` from 0.
      const element = elements[event.index - 1];
      if (!element) continue;
      const refused = run.problems.some((problem) => problem.code === "event-refused" && problem.option === "events" && problem.index === event.index - 1);
      this.meet(element, element.range, { kind: "event", event, refused, test, passed });
    }
    for (const participant of run.participants ?? []) {
      const script = participant.key !== undefined && call ? scriptsOfOption(call, "participants")?.scripts.find((found) => found.key === participant.key) : undefined;
      if (script) this.meet(script, script.propertyRange, { kind: "participant", call: participant, test, passed }, script.keyRange.start.line);
    }
    for (const decision of run.decisions ?? []) {
      const key = decision.match?.key;
      const script = key !== undefined && call ? scriptsOfOption(call, "decisions")?.scripts.find((found) => found.key === key) : undefined;
      if (script) this.meet(script, script.propertyRange, { kind: "decision", decision, test, passed }, script.keyRange.start.line);
    }
  }

  /** The views in the order of the text; at one place, a script's turns before anything else it met. */
  views(): ScriptView[] {
    const turnsFirst = (view: ScriptView) => (view.kind === "turn" ? 0 : 1);
    return [...this.byScript.values()]
      .flatMap((kinds) => [...kinds.values()])
      .sort((left, right) => compareRangeStarts(left.range, right.range) || turnsFirst(left) - turnsFirst(right));
  }

  /** The entry a match names: by its site (an answer/noAnswer), else by key and list position (a function). */
  private entryOf(match: MatchTrace | undefined, call: StaticTestWorkflowCall | undefined, testIndex: number | undefined): StaticEntry | undefined {
    if (!match) return undefined;
    const atSite = this.entryAt(match.site, testIndex);
    if (atSite) return atSite.entry;
    return call ? entryByKey(call, match.option, match.key, match.index)?.entry : undefined;
  }

  private meet(script: object, range: Range, met: Met, line = range.start.line): void {
    const kinds = this.byScript.get(script) ?? new Map<MetKind, ScriptView>();
    const view: ScriptView = kinds.get(met.kind) ?? { kind: met.kind, range, line, met: [] };
    const callee = "calleeRange" in script ? (script as StaticEntry).calleeRange : undefined;
    if (callee && callee.end.line === line) view.anchor = callee.end;
    view.met.push(met);
    kinds.set(met.kind, view);
    this.byScript.set(script, kinds);
  }
}
