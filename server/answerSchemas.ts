// The schema of an `answer(SCHEMA, value)` in an open test file, which the text alone cannot give
// (SCHEMA is a name imported from the workflow): from the runs' traces, each entry's schema by where
// it was written, kept per file and schema name across runs, so a run of half-typed text that never
// reached its answers still leaves completion and the fill fix the schemas of the runs before it.
import type { RunTrace } from "../core/testing/trace.ts";
import { entriesOfScript, entryAtSite, looseEntryAtSite } from "./analysis/siteLookup.ts";
import type { Position, StaticEntry, StaticTestFile } from "./analysis/model.ts";
import { rangeContains, rangeSize } from "./analysis/ranges.ts";
import type { RunResults, ServerState } from "./state.ts";

/** What a run tells of one document's answers: each entry's schema by the entry's start, and by its schema's text. */
interface KnownSchemas {
  /** The version the run ran, whose entries `byStart` names. */
  version: number;
  byStart: Map<string, unknown>;
  byText: Map<string, unknown>;
}

/** A decision the workflow asked, with its questions, as the last run saw it. */
export interface KnownDecision {
  key: string;
  questions: NonNullable<RunTrace["decisions"][number]["questions"]>;
}

export class AnswerSchemas {
  private readonly known = new Map<string, KnownSchemas>();
  private readonly decisions = new Map<string, Map<string, KnownDecision>>();

  constructor(private readonly state: ServerState) {
    state.onDidChangeResults.event((uri) => this.learn(uri));
    state.onDidClose.event((uri) => {
      this.known.delete(uri);
      this.decisions.delete(uri);
    });
  }

  /** The schema of the answer entry `entry` of the document's current text, or undefined when no run told it. */
  schemaOf(uri: string, entry: { range: { start: Position }; schemaText?: string }): unknown {
    const known = this.known.get(uri);
    if (!known) return undefined;
    const version = this.state.analysis(uri)?.version;
    if (version === known.version) {
      const exact = known.byStart.get(key(entry.range.start));
      if (exact !== undefined) return exact;
    }
    return entry.schemaText !== undefined ? known.byText.get(entry.schemaText) : undefined;
  }

  /** The decisions the document's runs asked, by key. */
  decisionsOf(uri: string): Map<string, KnownDecision> {
    return this.decisions.get(uri) ?? new Map();
  }

  private learn(uri: string): void {
    const results = this.state.get(uri)?.results;
    if (!results) return;
    const earlier = this.known.get(uri);
    const known: KnownSchemas = { version: results.version, byStart: new Map(), byText: new Map(earlier?.byText) };
    const decisions = this.decisions.get(uri) ?? new Map<string, KnownDecision>();
    for (const run of runsOf(results)) {
      for (const trace of run.entries) if (trace.schema !== undefined && trace.site) this.place(known, results.model, trace.site, trace.schema);
      for (const turn of run.turns) if (turn.schema !== undefined && turn.match?.site) this.place(known, results.model, turn.match.site, turn.schema);
      for (const decision of run.decisions) if (decision.questions) decisions.set(decision.key, { key: decision.key, questions: decision.questions });
    }
    this.known.set(uri, known);
    this.decisions.set(uri, decisions);
  }

  private place(known: KnownSchemas, model: StaticTestFile, site: { line: number; column: number }, schema: unknown): void {
    const entry = entryAtSite(model, site.line, site.column)?.entry ?? looseEntryAtSite(model, site.line, site.column);
    if (entry?.kind !== "answer") return;
    known.byStart.set(key(entry.range.start), schema);
    if (entry.schemaText !== undefined) known.byText.set(entry.schemaText, schema);
  }
}

function runsOf(results: RunResults): RunTrace[] {
  return results.report.tests.flatMap((test) => test.runs);
}

function key(position: Position): string {
  return `${position.line}:${position.character}`;
}

/** Every `answer(...)`/`noAnswer.*()` entry the static pass saw in the file, loose ones included. */
export function allEntries(model: StaticTestFile): StaticEntry[] {
  const entries: StaticEntry[] = [];
  for (const call of model.calls) {
    for (const scripts of [call.agents, call.compactions, call.messages]) {
      for (const script of scripts?.scripts ?? []) entries.push(...entriesOfScript(script));
    }
  }
  entries.push(...(model.looseEntries ?? []));
  return entries;
}

/** The innermost answer entry whose call holds `position`. */
export function answerEntryAt(model: StaticTestFile, position: Position): StaticEntry | undefined {
  const holding = allEntries(model).filter((entry) => entry.kind === "answer" && rangeContains(entry.range, position));
  holding.sort((left, right) => rangeSize(left.range) - rangeSize(right.range));
  return holding[0];
}
