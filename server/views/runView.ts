// Builds the view model of one run of one document version (`RunView`) from core's reports and
// traces and the static model: diagnostics with fixes, what each script met (scriptViews.ts), each
// test's result. Runtime sites become ranges through the model; the rest goes on the test.
import { schemaMismatchWhy } from "../../core/testing/schemaDifference.ts";
import { DiagnosticTag, type DiagnosticSeverity, type Range } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { SchemaName } from "../../core/execution/schemaNames.ts";
import type { ErrorReport, FileReport, Site, TestReport } from "../../core/execution/report.ts";
import type { ProblemTrace, RunTrace, TurnTrace } from "../../core/testing/trace.ts";
import { canonicalJson } from "../../core/workflow/json.ts";
import { callAtSite, entriesOfScript, entryAtSite, entryByKey, looseEntryAtSite, scriptsOfOption, testAt, testAtSite } from "../analysis/analyzeTestFile.ts";
import type { StaticEntry, StaticProblem, StaticScript, StaticTest, StaticTestFile, StaticTestWorkflowCall } from "../analysis/model.ts";
import { lineRange, rangeWithin, sameRange, siteLineRange, siteRange, throwRange } from "../analysis/ranges.ts";
import { fixTitles } from "../../core/testing/problemFixes.ts";
import { writtenValueAt } from "../analysis/writtenAnswer.ts";
import { addEntryFixes, addScriptFixes, ensureImport, fillAnswerFix, removeUnreached, renameOption, type Fix, type NamedSchema, type Unreached } from "./fixes.ts";
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
  shownStatically: Array<{ range: Range; message: string }>;
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

function describeSchema(schema: unknown): string {
  return schema === undefined || schema === "text" ? "text" : canonicalJson(schema);
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
  private readonly unreached: Array<{ diagnostic: TurnlensDiagnostic; item: Unreached }> = [];
  private readonly named = new Map<string, NamedSchema>();
  private readonly neverReached: NeverReachedView[] = [];
  private readonly shownStatically: Array<{ range: Range; message: string }> = [];
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
      const removeAll: Fix = { title: "Remove every entry never reached in this file", edits: removeUnreached(this.unreached.map((u) => u.item)) };
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

  /** A failing expect or a throw in the test: on its whole line (V8's column is the matcher's, not the statement's). */
  private testError(error: ErrorReport, testRange: Range): TurnlensDiagnostic {
    const range = this.inFile(error.location) ? siteLineRange(this.document, error.location) : testRange;
    const fromExpect = error.expected !== undefined || error.actual !== undefined || /^expect\(/.test(error.message);
    return diagnostic(range, fromExpect ? "expect-failed" : "test-failed", error.message);
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
    const { call, testRange } = scope;
    const shown = this.staticHas(problem, call);
    if (shown) {
      this.shownStatically.push({ range: shown.range, message: problem.message });
      return;
    }
    // A call inside this test; a helper's call (shared by several tests) leaves problems on the test.
    const fallback = call && call.testIndex !== undefined && call.testIndex === scope.testIndex ? call.calleeRange : testRange;
    const at = this.entryAt(problem.site, scope.testIndex);
    const push = (range: Range, message = problem.message, fixes: Fix[] = [], severity?: DiagnosticSeverity) => {
      const made = diagnostic(range, problem.code, message, fixes, severity);
      this.diagnostics.push(made);
      return made;
    };
    // A problem about one element of `events` (event-never-sent, event-refused...) goes on that element.
    const eventElement = problem.option === "events" && typeof problem.index === "number" ? call?.events?.elements[problem.index] : undefined;
    if (eventElement) {
      push(eventElement.range);
      return;
    }
    // A messages function has no site of its own: its key and list position name it.
    const keyed =
      problem.option && problem.option !== "agents" && problem.key !== undefined && call ? entryByKey(call, problem.option, problem.key, problem.index) : undefined;
    switch (problem.code) {
      case "unknown-option":
      case "script-invalid":
      case "script-empty-list":
        push(
          this.optionRange(call, problem.option) ?? this.scriptByKey(call, problem.option, problem.key)?.keyRange ?? fallback,
          problem.message,
          problem.suggestion && problem.option && this.optionRange(call, problem.option)
            ? [renameOption(this.optionRange(call, problem.option)!, problem.option, problem.suggestion)]
            : [],
        );
        return;
      case "entry-never-reached": {
        const severity = severityOf(this.input.settings.entryNeverReachedSeverity);
        const sites = problem.sites?.length ? problem.sites : problem.site ? [problem.site] : [];
        let placed = false;
        for (const site of sites) {
          const found = this.entryAt(site, scope.testIndex);
          if (!found) continue;
          placed = true;
          const made = push(found.entry.range, `${problem.message}: this entry is never reached`, [], severity);
          made.tags = [DiagnosticTag.Unnecessary];
          if (found.script && found.call) this.addUnreached(made, { scripts: this.scriptsOf(found.call, found.script), script: found.script, entries: [found.entry] });
          const entries = found.script?.shape === "list" ? found.script.entries.length : (found.script?.definition?.entries?.length ?? 0);
          this.neverReached.push({ range: found.entry.range, problem, entries, test: scope.test });
        }
        // Entries without sites (messages functions) are the list's from the first one never reached.
        const listed = keyed?.script.shape === "list" ? keyed.script.entries : keyed?.script.definition?.shape === "list" ? keyed.script.definition.entries : [];
        const unsited = !placed && typeof problem.index === "number" ? listed.slice(problem.index) : [];
        for (const entry of unsited) {
          const made = push(entry.range, `${problem.message}: this entry is never reached`, [], severity);
          made.tags = [DiagnosticTag.Unnecessary];
          if (call) this.addUnreached(made, { scripts: this.scriptsOf(call, keyed!.script), script: keyed!.script, entries: [entry] });
          this.neverReached.push({ range: entry.range, problem, entries: listed.length, test: scope.test });
        }
        if (!placed && unsited.length === 0) {
          const script = this.scriptByKey(call, problem.option ?? "agents", problem.key);
          push(script?.keyRange ?? fallback, problem.message, [], severity);
        }
        return;
      }
      case "list-never-asked": {
        const script = this.scriptByKey(call, problem.option ?? "agents", problem.key ?? problem.pattern);
        const made = push(script?.keyRange ?? fallback, problem.message, [], severityOf(this.input.settings.entryNeverReachedSeverity));
        made.tags = [DiagnosticTag.Unnecessary];
        if (script && call) this.addUnreached(made, { scripts: this.scriptsOf(call, script), script });
        return;
      }
      case "list-exhausted": {
        const found = problem.sites?.[0] ? this.entryAt(problem.sites[0], scope.testIndex) : undefined;
        // The entry the list ended with decides; a list written outside any script (given to a helper) has none.
        const script = found ? found.script : this.scriptByKey(call, problem.option ?? "agents", problem.key);
        const range = script ? (script.shape === "list" ? script.valueRange : (script.definition?.range ?? script.valueRange)) : (found?.entry.range ?? fallback);
        const turn = this.turnOf(scope.run, problem);
        const fixes =
          script && problem.agent && problem.turn
            ? addEntryFixes(this.document, this.input.model, script, problem.agent, problem.turn, turn?.schema, this.namedFor(turn?.schema))
            : [];
        push(range, problem.message, fixes);
        return;
      }
      case "agent-unscripted": {
        const turn = this.turnOf(scope.run, problem);
        const fixes = call && problem.agent ? addScriptFixes(this.document, this.input.model, call, problem.agent, turn?.schema, this.namedFor(turn?.schema)) : [];
        push(call?.agents?.objectRange ?? fallback, problem.message, fixes);
        return;
      }
      case "glob-conflict": {
        const keys = (problem.patterns ?? [])
          .map((pattern) => this.scriptByKey(call, problem.option ?? "agents", pattern)?.keyRange)
          .filter((range): range is Range => !!range);
        if (keys.length === 0) push(fallback);
        for (const range of keys) push(range);
        return;
      }
      case "schema-mismatch": {
        const message = `${turnName(problem)}: ${schemaMismatchWhy(problem)}`;
        const named = this.namedFor(problem.expectedSchema);
        const range = at?.entry.schemaRange ?? at?.entry.range ?? fallback;
        const fixes: Fix[] =
          named && at?.entry.schemaRange
            ? [
                {
                  title: fixTitles.answerWith(named.name),
                  edits: [...ensureImport(this.document, this.input.model, named.module, named.name), { range: at.entry.schemaRange, newText: named.name }],
                  preferred: true,
                },
              ]
            : [];
        // The message names the schemas and where they first differ; the hover's detail has them whole.
        push(range, message, fixes).relatedInformation = [
          {
            location: { uri: this.document.uri, range },
            message: `the turn's schema${problem.expectedName ? ` (${problem.expectedName})` : ""}: ${describeSchema(problem.expectedSchema)}`,
          },
          {
            location: { uri: this.document.uri, range },
            message: `the script's schema${problem.actualName ? ` (${problem.actualName})` : ""}: ${describeSchema(problem.actualSchema)}`,
          },
        ];
        return;
      }
      case "answer-refused": {
        const schema = problem.expectedSchema ?? this.turnOf(scope.run, problem)?.schema;
        const valueRange = at?.entry.valueRange;
        const fill =
          valueRange && schema !== undefined && schema !== "text"
            ? fillAnswerFix(this.document, valueRange, writtenValueAt(this.input.text, valueRange), schema)
            : undefined;
        push(valueRange ?? at?.entry.range ?? fallback, problem.message, fill ? [fill] : []);
        return;
      }
      case "script-threw":
      case "decision-script-threw":
        push(this.inFile(problem.thrownAt) ? throwRange(this.document, problem.thrownAt) : (at?.entry.range ?? fallback));
        return;
      case "message-script-threw":
      case "participant-script-threw":
        push(
          this.inFile(problem.thrownAt) ? throwRange(this.document, problem.thrownAt) : (at?.entry.range ?? keyed?.entry?.range ?? keyed?.script.keyRange ?? fallback),
        );
        return;
      case "message-unscripted":
        push(call?.messages?.objectRange ?? fallback);
        return;
      case "participant-unscripted":
        push(call?.participants?.objectRange ?? fallback);
        return;
      case "stall": {
        const ranges = new Map<string, Range>();
        for (const flight of problem.inFlight ?? []) {
          const turn = scope.run?.turns.find((t) => t.agent === flight.agent && t.n === flight.n && t.nudge === flight.nudge);
          const entry = this.entryAt(turn?.match?.site, scope.testIndex);
          if (entry) ranges.set(JSON.stringify(entry.entry.range), entry.entry.range);
        }
        if (ranges.size === 0) push(this.optionRange(call, "stall") ?? fallback);
        for (const range of ranges.values()) push(range);
        return;
      }
      case "max-turns":
      case "option-invalid":
      case "args-required":
        push(this.optionRange(call, problem.option) ?? fallback);
        return;
      case "workflow-threw":
      case "no-scripts":
        push(fallback);
        return;
      default: {
        const decision = problem.decision ? this.scriptByKey(call, "decisions", problem.decision)?.keyRange : undefined;
        push(
          at?.entry.range ??
            decision ??
            keyed?.entry?.range ??
            this.scriptByKey(call, problem.option, problem.key)?.keyRange ??
            this.optionRange(call, problem.option) ??
            fallback,
        );
      }
    }
  }

  private scriptsOf(call: StaticTestWorkflowCall, script: StaticScript): StaticScript[] {
    const options = [call.agents, call.decisions, call.compactions, call.messages, call.participants];
    return options.find((scripts) => scripts?.scripts.includes(script))?.scripts ?? [script];
  }

  private addUnreached(made: TurnlensDiagnostic, item: Unreached): void {
    const removal = removeUnreached([item]);
    const entries = item.entries ? entriesOfScript(item.script).filter((entry) => item.entries!.includes(entry)) : [];
    const title = item.entries ? fixTitles.removeUnreached(entries.length) : fixTitles.removeNeverAsked(item.script.key);
    made.data.fixes.push({ title, edits: removal, preferred: true });
    this.unreached.push({ diagnostic: made, item });
  }

  private turnOf(run: RunTrace | undefined, problem: ProblemTrace): TurnTrace | undefined {
    return run?.turns.find((turn) => turn.agent === problem.agent && turn.n === problem.turn && turn.nudge === (problem.nudge ?? false));
  }

  private namedFor(schema: unknown): NamedSchema | undefined {
    if (schema === undefined || schema === "text") return undefined;
    return this.named.get(canonicalJson(schema));
  }
}

interface Scope {
  run: RunTrace | undefined;
  call: StaticTestWorkflowCall | undefined;
  testIndex: number | undefined;
  testRange: Range;
  test: string;
}

/**
 * Whether a static problem is the run's: an unknown option by its name; a script problem by its
 * option and key (the static pass may word a value by its source text, the run by its value; a
 * run's problem about a whole `agents` or `compactions` value names no option); the rest, worded
 * by the same core functions, by their message.
 */
function sameProblem(known: StaticProblem, problem: ProblemTrace): boolean {
  if (known.code === "unknown-option") return known.option === problem.option;
  if (known.code === "script-invalid" || known.code === "script-empty-list") {
    return (problem.option === undefined || known.option === problem.option) && (known.key === undefined || problem.key === undefined || known.key === problem.key);
  }
  return known.message === problem.message;
}

/** Whether a static problem is in the call, or on the element of its `events` (which a const outside it may hold). */
function staticOfCall(known: StaticProblem, call: StaticTestWorkflowCall): boolean {
  if (rangeWithin(known.range, call.range)) return true;
  const element = known.option === "events" && known.index !== undefined ? call.events?.elements[known.index] : undefined;
  return !!element && sameRange(element.range, known.range);
}
