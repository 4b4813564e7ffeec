// Builds the view model of one run of one document version (`RunView`) from core's reports and
// traces and the static model: diagnostics with what their fixes need, what each script met
// (scriptViews.ts), each test's result. Runtime sites become ranges through the model; the rest
// goes on the test. Each problem code's placement, severity and fix are its entry in
// core/testing/problemCodes.ts.
import { schemaInWords, schemaMismatchWhy } from "../../core/testing/schemaDifference.ts";
import { DiagnosticSeverity, DiagnosticTag, type DiagnosticRelatedInformation, type Range } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { SchemaName } from "../../core/execution/schemaNames.ts";
import type { ErrorReport, FileReport, Site, TestReport } from "../../core/execution/report.ts";
import type { ProblemTrace, RunTrace, TurnTrace } from "../../core/testing/trace.ts";
import { canonicalJson } from "../../core/workflow/json.ts";
import type { Question } from "../../core/workflow/types.ts";
import { callAtSite, entryAtSite, entryByKey, looseEntryAtSite, scriptsOfOption, testAt, testAtSite } from "../analysis/analyzeTestFile.ts";
import type { StaticEntry, StaticProblem, StaticScript, StaticTest, StaticTestFile, StaticTestWorkflowCall } from "../analysis/model.ts";
import { lineRange, rangeWithin, sameRange, siteRange, throwRange } from "../analysis/ranges.ts";
import { plainFailureCode, plainFailureSite } from "../../core/execution/failureLocation.ts";
import { eventKeyAtFault } from "../../core/testing/eventKeyAtFault.ts";
import { describeProblem, type ProblemFix, type ProblemPlacement, type ProblemSeverity } from "../../core/testing/problemCodes.ts";
import type { FixNeed, NamedSchema, Unreached } from "./fixes.ts";
import { ScriptViews, type ScriptView } from "./scriptViews.ts";
import type { Settings } from "../settings.ts";
import { diagnostic, severityOf, type TurnlensDiagnostic } from "./toLsp.ts";

export interface TestView {
  report: TestReport;
  /** Where the test is: its callee, or the reported location's line. */
  range: Range;
  /** The static test, when the text declares it; tests named at run time have none. */
  test?: StaticTest;
}

/** Everything the editor shows from one run of one document version. */
export interface RunView {
  diagnostics: TurnlensDiagnostic[];
  /** What each script met: turns, compactions, wakes, events, participant calls, decisions; in the order of the text. */
  scripts: ScriptView[];
  tests: TestView[];
  /**
   * The run's problems the static pass already shows (a misspelled option): not published again,
   * but a failed test's message in the Test Explorer still goes where the problem is.
   */
  shownStatically: Array<{ range: Range; message: string; severity: DiagnosticSeverity }>;
  /** Each entry a run never reached, for its hover: why no turn reached it. */
  neverReached: NeverReachedView[];
}

/** An entry never reached: the list's agent, how many turns (or wakes, compactions) it was asked, the list's length. */
export interface NeverReachedView {
  range: Range;
  problem: ProblemTrace;
  /** The list's length. */
  entries: number;
  /** The test's path joined by " › ", as `Met.test`. */
  test: string;
}

export interface ConvertInput {
  /** Absolute path of the test file. */
  file: string;
  /** The text the run ran, which the model was made from. */
  text: string;
  model: StaticTestFile;
  report: FileReport;
  schemas: SchemaName[];
  settings: Settings;
}

/** The runner's id for a report ends in " (2)" for a second test of the same path. */
function occurrenceOf(report: TestReport): number {
  const base = report.path.join(" › ");
  const match = report.id.startsWith(base) ? /^ \((\d+)\)$/.exec(report.id.slice(base.length)) : null;
  return match ? Number(match[1]) : 1;
}

function turnName(problem: ProblemTrace): string {
  return `agent "${problem.agent}" turn ${problem.turn}${problem.nudge ? " (nudge)" : ""}`;
}

/** Converts one run of one document version. */
export function toRunView(input: ConvertInput): RunView {
  return new Converter(input).convert();
}

class Converter {
  private readonly document: TextDocument;
  private readonly diagnostics: TurnlensDiagnostic[] = [];
  private readonly tests: TestView[] = [];
  /** Every entry and script never reached in the file, for "remove every entry never reached". */
  private readonly unreached: Array<{ diagnostic: TurnlensDiagnostic; item: Unreached }> = [];
  private readonly named = new Map<string, NamedSchema>();
  private readonly neverReached: NeverReachedView[] = [];
  private readonly shownStatically: Array<{ range: Range; message: string; severity: DiagnosticSeverity }> = [];
  private readonly scripts = new ScriptViews((site, testIndex) => this.entryAt(site, testIndex));

  constructor(private readonly input: ConvertInput) {
    this.document = TextDocument.create(`file://${input.file}`, "typescript", 0, input.text);
    for (const schema of input.schemas) this.named.set(schema.schema, schema);
  }

  convert(): RunView {
    const { report } = this.input;
    if (report.error) this.diagnostics.push(this.fileError(report.error));
    for (const test of report.tests) this.convertTest(test);
    if (this.unreached.length > 1) {
      const removeAll = this.unreached.map((unreached) => unreached.item);
      for (const { diagnostic } of this.unreached) diagnostic.data.removeAll = removeAll;
    }
    return { diagnostics: this.diagnostics, scripts: this.scripts.views(), tests: this.tests, neverReached: this.neverReached, shownStatically: this.shownStatically };
  }

  private inFile(site: Site | undefined): site is Site {
    return site !== undefined && site.file === this.input.file;
  }

  private fileError(error: ErrorReport): TurnlensDiagnostic {
    const range = this.inFile(error.location) ? siteRange(this.document, error.location) : lineRange(this.document, 0);
    return diagnostic(range, "file-failed", error.message);
  }

  private convertTest(report: TestReport): void {
    const { model } = this.input;
    const test =
      testAt(model, report.path, occurrenceOf(report)) ?? (this.inFile(report.location) ? testAtSite(model, report.location.line, report.location.column) : undefined);
    const testIndex = test ? model.tests.indexOf(test) : undefined;
    const range = test?.calleeRange ?? (this.inFile(report.location) ? siteRange(this.document, report.location) : lineRange(this.document, 0));
    const view: TestView = { report, range };
    if (test) view.test = test;
    this.tests.push(view);
    const testName = report.path.join(" › ");
    const before = this.diagnostics.length;
    let problems = 0;
    for (const run of report.runs) {
      const call = this.inFile(run.site) ? callAtSite(model, run.site.line, run.site.column) : undefined;
      const scope: Scope = { run, call, testIndex, testRange: range, test: testName };
      this.scripts.add(run, call, testIndex, testName, report.status !== "failed");
      // A test that passed caught its runs' problems on purpose (`rejects.toThrow`).
      if (report.status !== "failed") continue;
      for (const problem of run.problems) {
        problems++;
        this.convertProblem(problem, scope);
      }
    }
    if (report.status === "failed" && report.error) {
      if (problems === 0 && report.error.problems?.length) {
        for (const problem of report.error.problems) this.convertProblem(problem, { run: undefined, call: undefined, testIndex, testRange: range, test: testName });
      } else if (problems === 0) {
        this.diagnostics.push(this.testError(report.error, range));
      }
    }
    for (const added of this.diagnostics.slice(before)) added.data.test = report.id;
  }

  /**
   * A failing expect, a timeout or a throw in the test: from where it failed (an expect's matcher, a
   * throw's `throw`, a call's first name) to the line's end, at the place and with the code every
   * `turnlens test` reporter gives it (core/execution/failureLocation.ts).
   */
  private testError(error: ErrorReport, testRange: Range): TurnlensDiagnostic {
    const range = this.inFile(error.location) ? siteRange(this.document, plainFailureSite(error.location, this.input.text)) : testRange;
    return diagnostic(range, plainFailureCode(error), error.message);
  }

  private entryAt(site: Site | undefined, testIndex: number | undefined): { entry: StaticEntry; script?: StaticScript; call?: StaticTestWorkflowCall } | undefined {
    if (!this.inFile(site)) return undefined;
    const found = entryAtSite(this.input.model, site.line, site.column, testIndex);
    if (found) return found;
    const loose = looseEntryAtSite(this.input.model, site.line, site.column);
    return loose ? { entry: loose } : undefined;
  }

  private scriptByKey(call: StaticTestWorkflowCall | undefined, option: string | undefined, key: string | undefined): StaticScript | undefined {
    if (!call || key === undefined) return undefined;
    // No option is `agents`; an option without keyed scripts (events, stall...) has no key's script.
    return scriptsOfOption(call, option)?.scripts.find((script) => script.key === key);
  }

  private optionRange(call: StaticTestWorkflowCall | undefined, name: string | undefined): Range | undefined {
    return call?.options.find((option) => option.name === name)?.nameRange;
  }

  /** The static pass's copy of this problem of this call, when it shows it: the run's copy is not repeated. */
  private staticHas(problem: ProblemTrace, call: StaticTestWorkflowCall | undefined): StaticProblem | undefined {
    return this.input.model.problems.find((known) => known.code === problem.code && sameProblem(known, problem) && (!call || staticOfCall(known, call)));
  }

  private convertProblem(problem: ProblemTrace, scope: Scope): void {
    const shown = this.staticHas(problem, scope.call);
    if (shown) {
      this.shownStatically.push({ range: shown.range, message: problem.message, severity: this.severity(describeProblem(problem.code).severity) });
      return;
    }
    const descriptor = describeProblem(problem.code);
    const severity = this.severity(descriptor.severity);
    for (const place of this.placesOf(problem, descriptor.placement, scope)) {
      const fixes = this.fixNeeds(descriptor.fix, problem, place.target ?? {});
      const made = diagnostic(place.range, problem.code, place.message ?? problem.message, fixes, severity);
      if (place.unnecessary) made.tags = [DiagnosticTag.Unnecessary];
      if (place.relatedInformation) made.relatedInformation = place.relatedInformation;
      if (place.target?.unreached) this.unreached.push({ diagnostic: made, item: place.target.unreached });
      this.diagnostics.push(made);
    }
  }

  private severity(severity: ProblemSeverity): DiagnosticSeverity {
    switch (severity) {
      case "error":
        return DiagnosticSeverity.Error;
      case "neverReached":
        return severityOf(this.input.settings.entryNeverReachedSeverity);
      default:
        return severity satisfies never;
    }
  }

  /** What the code's fix needs of what the placement found (the edits are made on request, fixes.ts's `fixesOf`). */
  private fixNeeds(fix: ProblemFix, problem: ProblemTrace, target: FixTarget): FixNeed[] {
    switch (fix) {
      case "none":
        return [];
      case "rename":
        return problem.suggestion && problem.option && target.optionName
          ? [{ kind: "rename", nameRange: target.optionName, written: problem.option, suggestion: problem.suggestion }]
          : [];
      case "removeUnreached":
      case "removeNeverAsked":
        return target.unreached ? [{ kind: "removeUnreached", item: target.unreached }] : [];
      case "addEntry":
        return target.script && problem.agent && problem.turn
          ? [{ kind: "addEntry", script: target.script, agent: problem.agent, turn: problem.turn, schema: target.turnSchema, named: this.namedFor(target.turnSchema) }]
          : [];
      case "addScript":
        return target.call && problem.agent
          ? [{ kind: "addScript", call: target.call, agent: problem.agent, schema: target.turnSchema, named: this.namedFor(target.turnSchema) }]
          : [];
      case "addDecisionScript":
        return target.call && problem.decision !== undefined && target.decisionQuestions
          ? [{ kind: "addDecisionScript", call: target.call, key: problem.decision, questions: target.decisionQuestions }]
          : [];
      case "answerWith": {
        const named = this.namedFor(problem.expectedSchema);
        return named && target.schemaRange ? [{ kind: "answerWith", schemaRange: target.schemaRange, named }] : [];
      }
      case "fill":
        return target.valueRange && target.turnSchema !== undefined && target.turnSchema !== "text"
          ? [{ kind: "fill", valueRange: target.valueRange, schema: target.turnSchema }]
          : [];
      default:
        return fix satisfies never;
    }
  }

  /** Where a problem's diagnostics go (its code's placement, problemCodes.ts), and what each found for the fix. */
  private placesOf(problem: ProblemTrace, placement: ProblemPlacement, scope: Scope): Place[] {
    const { call, testRange } = scope;
    // A call inside this test; a helper's call (shared by several tests) leaves problems on the test.
    const fallback = call && call.testIndex !== undefined && call.testIndex === scope.testIndex ? call.calleeRange : testRange;
    // A problem about one element of `events` (event-never-sent, event-refused...) goes on that element.
    const eventElement = problem.option === "events" && typeof problem.index === "number" ? call?.events?.elements[problem.index] : undefined;
    if (eventElement) {
      // On the key at fault (a `during` whose turn never came, a misspelled `durring`), else the element.
      const key = eventKeyAtFault(problem, eventElement.keys?.map((written) => written.key) ?? []);
      return [{ range: eventElement.keys?.find((written) => written.key === key)?.range ?? eventElement.range }];
    }
    const at = this.entryAt(problem.site, scope.testIndex);
    // A messages function has no site of its own: its key and list position name it.
    const keyed =
      problem.option && problem.option !== "agents" && problem.key !== undefined && call ? entryByKey(call, problem.option, problem.key, problem.index) : undefined;
    switch (placement) {
      case "optionName": {
        const optionName = this.optionRange(call, problem.option);
        return [{ range: optionName ?? this.scriptByKey(call, problem.option, problem.key)?.keyRange ?? fallback, target: optionName ? { optionName } : {} }];
      }
      case "scriptValue": {
        // Where the static pass shows the same problem (staticProblems.ts), so a run's copy lands on it too.
        const value =
          problem.key !== undefined
            ? this.scriptByKey(call, problem.option, problem.key)?.valueRange
            : call?.options.find((option) => option.name === problem.option)?.valueRange;
        const optionName = this.optionRange(call, problem.option);
        return [{ range: value ?? optionName ?? fallback, target: optionName ? { optionName } : {} }];
      }
      case "unreachedEntries": {
        const places: Place[] = [];
        const sites = problem.sites?.length ? problem.sites : problem.site ? [problem.site] : [];
        const message = `${problem.message}: this entry is never reached`;
        for (const site of sites) {
          const found = this.entryAt(site, scope.testIndex);
          if (!found) continue;
          const unreached = found.script && found.call ? { scripts: this.scriptsOf(found.call, found.script), script: found.script, entries: [found.entry] } : undefined;
          places.push({ range: found.entry.range, message, unnecessary: true, target: unreached ? { unreached } : {} });
          const entries = found.script?.shape === "list" ? found.script.entries.length : (found.script?.definition?.entries?.length ?? 0);
          this.neverReached.push({ range: found.entry.range, problem, entries, test: scope.test });
        }
        // Entries without sites (messages functions) are the list's from the first one never reached.
        const listed = keyed?.script.shape === "list" ? keyed.script.entries : keyed?.script.definition?.shape === "list" ? keyed.script.definition.entries : [];
        const unsited = places.length === 0 && typeof problem.index === "number" ? listed.slice(problem.index) : [];
        for (const entry of unsited) {
          const unreached = call ? { scripts: this.scriptsOf(call, keyed!.script), script: keyed!.script, entries: [entry] } : undefined;
          places.push({ range: entry.range, message, unnecessary: true, target: unreached ? { unreached } : {} });
          this.neverReached.push({ range: entry.range, problem, entries: listed.length, test: scope.test });
        }
        if (places.length === 0) places.push({ range: this.scriptByKey(call, problem.option ?? "agents", problem.key)?.keyRange ?? fallback });
        return places;
      }
      case "scriptKey": {
        const script = this.scriptByKey(call, problem.option ?? "agents", problem.key ?? problem.pattern);
        return [
          { range: script?.keyRange ?? fallback, unnecessary: true, target: script && call ? { unreached: { scripts: this.scriptsOf(call, script), script } } : {} },
        ];
      }
      case "list": {
        const found = problem.sites?.[0] ? this.entryAt(problem.sites[0], scope.testIndex) : undefined;
        // The entry the list ended with decides; a list written outside any script (given to a helper) has none.
        const script = found ? found.script : this.scriptByKey(call, problem.option ?? "agents", problem.key);
        const range = script ? (script.shape === "list" ? script.valueRange : (script.definition?.range ?? script.valueRange)) : (found?.entry.range ?? fallback);
        return [{ range, target: { script, turnSchema: this.turnOf(scope.run, problem)?.schema } }];
      }
      case "agentsObject":
        return [{ range: call?.agents?.objectRange ?? fallback, target: { call, turnSchema: this.turnOf(scope.run, problem)?.schema } }];
      case "globKeys": {
        const keys = (problem.patterns ?? [])
          .map((pattern) => this.scriptByKey(call, problem.option ?? "agents", pattern)?.keyRange)
          .filter((range): range is Range => !!range);
        return keys.length === 0 ? [{ range: fallback }] : keys.map((range) => ({ range }));
      }
      case "schemaArgument": {
        const range = at?.entry.schemaRange ?? at?.entry.range ?? fallback;
        // The message names the schemas and where they first differ; the related lines say each in
        // words (Problems and the hover show them on one line each); the JSON is the peek's diff's.
        const relatedInformation = [
          {
            location: { uri: this.document.uri, range },
            message: `the turn's schema${problem.expectedName ? ` (${problem.expectedName})` : ""}: ${schemaInWords(problem.expectedSchema)}`,
          },
          {
            location: { uri: this.document.uri, range },
            message: `the script's schema${problem.actualName ? ` (${problem.actualName})` : ""}: ${schemaInWords(problem.actualSchema)}`,
          },
        ];
        return [{ range, message: `${turnName(problem)}: ${schemaMismatchWhy(problem)}`, relatedInformation, target: { schemaRange: at?.entry.schemaRange } }];
      }
      case "answerValue": {
        const valueRange = at?.entry.valueRange;
        const turnSchema = problem.expectedSchema ?? this.turnOf(scope.run, problem)?.schema;
        return [{ range: valueRange ?? at?.entry.range ?? fallback, target: { valueRange, turnSchema } }];
      }
      case "throw":
        return [{ range: this.inFile(problem.thrownAt) ? throwRange(this.document, problem.thrownAt) : (at?.entry.range ?? fallback) }];
      case "throwElseScript":
        return [
          {
            range: this.inFile(problem.thrownAt)
              ? throwRange(this.document, problem.thrownAt)
              : (at?.entry.range ?? keyed?.entry?.range ?? keyed?.script.keyRange ?? fallback),
          },
        ];
      case "messagesObject":
        return [{ range: call?.messages?.objectRange ?? fallback }];
      case "participantsObject":
        return [{ range: call?.participants?.objectRange ?? fallback }];
      case "inFlightEntries": {
        const ranges = new Map<string, Range>();
        for (const flight of problem.inFlight ?? []) {
          const turn = scope.run?.turns.find((t) => t.agent === flight.agent && t.n === flight.n && t.nudge === flight.nudge);
          const entry = this.entryAt(turn?.match?.site, scope.testIndex);
          if (entry) ranges.set(JSON.stringify(entry.entry.range), entry.entry.range);
        }
        return ranges.size === 0 ? [{ range: this.optionRange(call, "stall") ?? fallback }] : [...ranges.values()].map((range) => ({ range }));
      }
      case "option":
        return [{ range: this.optionRange(call, problem.option) ?? fallback }];
      case "call":
        return [{ range: fallback }];
      case "named": {
        const decision = problem.decision ? this.scriptByKey(call, "decisions", problem.decision)?.keyRange : undefined;
        const questions = problem.decision !== undefined ? scope.run?.decisions.find((asked) => asked.key === problem.decision)?.questions : undefined;
        return [
          {
            range:
              at?.entry.range ??
              decision ??
              keyed?.entry?.range ??
              this.scriptByKey(call, problem.option, problem.key)?.keyRange ??
              this.optionRange(call, problem.option) ??
              fallback,
            target: { call, ...(questions ? { decisionQuestions: questions } : {}) },
          },
        ];
      }
      default:
        return placement satisfies never;
    }
  }

  private scriptsOf(call: StaticTestWorkflowCall, script: StaticScript): StaticScript[] {
    const options = [call.agents, call.decisions, call.compactions, call.messages, call.participants];
    return options.find((scripts) => scripts?.scripts.includes(script))?.scripts ?? [script];
  }

  private turnOf(run: RunTrace | undefined, problem: ProblemTrace): TurnTrace | undefined {
    return run?.turns.find((turn) => turn.agent === problem.agent && turn.n === problem.turn && turn.nudge === (problem.nudge ?? false));
  }

  private namedFor(schema: unknown): NamedSchema | undefined {
    if (schema === undefined || schema === "text") return undefined;
    return this.named.get(canonicalJson(schema));
  }
}

/** One diagnostic of a problem: where it goes, and what its placement found that a fix needs. */
interface Place {
  range: Range;
  /** Set when it differs from the problem's. */
  message?: string;
  /** An entry or script never reached: tagged unnecessary. */
  unnecessary?: boolean;
  relatedInformation?: DiagnosticRelatedInformation[];
  target?: FixTarget;
}

/** What a placement found that the code's fix works on (`fixNeeds`). */
interface FixTarget {
  /** The option's name, to rename. */
  optionName?: Range;
  /** The entries or the script to remove. */
  unreached?: Unreached;
  /** The list to append an entry to. */
  script?: StaticScript | undefined;
  /** The call to add a script to. */
  call?: StaticTestWorkflowCall | undefined;
  /** The questions of the decision no script met, as the run asked them. */
  decisionQuestions?: Readonly<Record<string, Question>>;
  /** The entry's schema argument, to answer with the turn's schema. */
  schemaRange?: Range | undefined;
  /** The entry's value argument, to fill. */
  valueRange?: Range | undefined;
  /** The schema of the turn the problem is about. */
  turnSchema?: unknown;
}

interface Scope {
  run: RunTrace | undefined;
  call: StaticTestWorkflowCall | undefined;
  testIndex: number | undefined;
  testRange: Range;
  test: string;
}

/**
 * Whether a static problem of the same code is the run's, as its code's `static` says: an unknown
 * option by its name; a script problem by its option and key (the static pass may word a value by
 * its source text, the run by its value; a run's problem about a whole `agents` or `compactions`
 * value names no option); the rest, worded by the same core functions, by their message.
 */
function sameProblem(known: StaticProblem, problem: ProblemTrace): boolean {
  const match = describeProblem(problem.code).static;
  switch (match) {
    case "byOption":
      return known.option === problem.option;
    case "byScript":
      return (problem.option === undefined || known.option === problem.option) && (known.key === undefined || problem.key === undefined || known.key === problem.key);
    case "byMessage":
    case undefined:
      return known.message === problem.message;
    default:
      return match satisfies never;
  }
}

/** Whether a static problem is in the call, or on the element of its `events` (which a const outside it may hold). */
function staticOfCall(known: StaticProblem, call: StaticTestWorkflowCall): boolean {
  if (rangeWithin(known.range, call.range)) return true;
  const element = known.option === "events" && known.index !== undefined ? call.events?.elements[known.index] : undefined;
  return !!element && sameRange(element.range, known.range);
}
