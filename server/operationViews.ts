// What a run met besides turns, gathered by the script that met it: each compaction on its
// `compactions` entry, each wake on its `messages` entry, each scripted event on its `events`
// element, each participant call on its `participants` key, each decision on its `decisions` key.

import type { Range } from "vscode-languageserver";
import type { Site } from "../core/runner/report.ts";
import type { CompactionTrace, DecisionTrace, MatchTrace, MessageTrace, ParticipantEventTrace, RunTrace } from "../core/testing/trace.ts";
import { entryByKey, scriptsOfOption } from "./analysis/analyzeTestFile.ts";
import type { StaticEntry, StaticTestWorkflowCall } from "./analysis/model.ts";

/** One scripted event of the `events` option, as the run traced it. */
export type EventTrace = NonNullable<RunTrace["events"]>[number];

/** One thing a script met in one run, with the test that ran it (its path joined by " › "). */
export type MetOperation =
  | { kind: "compaction"; compaction: CompactionTrace; test: string }
  | { kind: "wake"; message: MessageTrace; test: string }
  | { kind: "event"; event: EventTrace; refused: boolean; test: string }
  | { kind: "participant"; call: ParticipantEventTrace; test: string }
  | { kind: "decision"; decision: DecisionTrace; test: string };

export type OperationKind = MetOperation["kind"];

/** Everything one script (entry, events element, participants or decisions key) met. */
export interface OperationView {
  kind: OperationKind;
  /** What a hover covers: the entry, the events element, or the whole `key: script` property. */
  range: Range;
  /** The line whose end the hint goes on: the entry's or element's first line, the key's. */
  line: number;
  met: MetOperation[];
}

/** The converter's lookup of a runtime site: the entry there, preferring the call of `testIndex`. */
export type EntryAtSite = (site: Site | undefined, testIndex: number | undefined) => { entry: StaticEntry } | undefined;

export class OperationViews {
  private readonly byScript = new Map<object, OperationView>();

  constructor(private readonly entryAt: EntryAtSite) {}

  /** Adds what one run met; `call` is its testWorkflow call in this file, when the static pass found one. */
  add(run: RunTrace, call: StaticTestWorkflowCall | undefined, testIndex: number | undefined, test: string): void {
    for (const compaction of run.compactions ?? []) {
      const entry = this.entryOf(compaction.match, call, testIndex);
      if (entry) this.meet(entry, "compaction", entry.range, { kind: "compaction", compaction, test });
    }
    for (const message of run.messages ?? []) {
      const entry = this.entryOf(message.match, call, testIndex);
      if (entry) this.meet(entry, "wake", entry.range, { kind: "wake", message, test });
    }
    const elements = call?.events?.elements ?? [];
    for (const event of run.events ?? []) {
      // `RunTrace.events[i].index` counts from 1; a problem's `index` from 0.
      const element = elements[event.index - 1];
      if (!element) continue;
      const refused = run.problems.some((problem) => problem.code === "event-refused" && problem.option === "events" && problem.index === event.index - 1);
      this.meet(element, "event", element.range, { kind: "event", event, refused, test });
    }
    for (const participant of run.participants ?? []) {
      const script = participant.key !== undefined && call ? scriptsOfOption(call, "participants")?.scripts.find((found) => found.key === participant.key) : undefined;
      if (script) this.meet(script, "participant", script.propertyRange, { kind: "participant", call: participant, test }, script.keyRange.start.line);
    }
    for (const decision of run.decisions ?? []) {
      const key = decision.match?.key;
      const script = key !== undefined && call ? scriptsOfOption(call, "decisions")?.scripts.find((found) => found.key === key) : undefined;
      if (script) this.meet(script, "decision", script.propertyRange, { kind: "decision", decision, test }, script.keyRange.start.line);
    }
  }

  /** The views, in the order of the text. */
  views(): OperationView[] {
    return [...this.byScript.values()].sort(
      (left, right) => left.range.start.line - right.range.start.line || left.range.start.character - right.range.start.character,
    );
  }

  /** The entry a match names: by its site (an answer/noAnswer), else by key and list position (a function). */
  private entryOf(match: MatchTrace | undefined, call: StaticTestWorkflowCall | undefined, testIndex: number | undefined): StaticEntry | undefined {
    if (!match) return undefined;
    const atSite = this.entryAt(match.site, testIndex);
    if (atSite) return atSite.entry;
    return call ? entryByKey(call, match.option, match.key, match.index)?.entry : undefined;
  }

  private meet(script: object, kind: OperationKind, range: Range, met: MetOperation, line = range.start.line): void {
    const view = this.byScript.get(script) ?? { kind, range, line, met: [] };
    view.met.push(met);
    this.byScript.set(script, view);
  }
}
