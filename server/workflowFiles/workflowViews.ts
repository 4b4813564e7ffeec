// In the workflow file (a document that is not a test file): what the tests did at each call, from
// the last run of every test file (workflowRuns.ts). An inlay hint at the end of each reached
// call's line (`in 6 tests: answered 9, no answer 2, timed out 1`), a hover listing the tests with
// links, the references at a call (the entries that met its turns), and at an agent's open call the
// outcomes no test gives it: counted in the hint, named in the hover, and a Hint diagnostic (no
// squiggle, not in Problems) that carries the quick fixes adding such a test. The server's one instance (`server.workflowViews`); the registrars of server/features/
// (hover, inlayHints, references, diagnostics, codeActions) hand workflow documents here.
import {
  CodeActionKind,
  DiagnosticSeverity,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type Hover,
  type HoverParams,
  type InlayHint,
  type InlayHintParams,
  type Location,
  type Range,
  type ReferenceParams,
} from "vscode-languageserver";
import { pathToFileURL } from "node:url";
import { outcomeKindWords } from "../../core/testing/outcomeWords.ts";
import { callSummary, type CallCoverage, type WorkflowCoverage } from "../../core/coverage/outcomeCoverage.ts";
import { HINT_WIDTH } from "../limits.ts";
import { placedHint } from "../views/hintPlacement.ts";
import { isTestFile } from "../../core/project/discover.ts";
import type { SourceSite } from "../../core/testing/trace.ts";
import { analyzeTestFile } from "../analysis/analyzeTestFile.ts";
import { callNameRange, lineInRange, positionOfSite, rangeContains, rangesMeet, siteCharacterRange, siteWordRange } from "../analysis/ranges.ts";
import type { Server } from "../server.ts";
import type { ProjectConfigs } from "../projectConfig.ts";
import { fileOf, type ServerState } from "../state.ts";
import type { Scheduler } from "../scheduler.ts";
import { markdownHover, SOURCE } from "../views/toLsp.ts";
import { addOutcomeTest, ENTRY_FOR_OUTCOME, nearestReaches } from "./addOutcomeTest.ts";
import { callMarkdown } from "./workflowHover.ts";
import { WorkflowRuns } from "./workflowRuns.ts";
import { testFilesImporting } from "./workflowTestFiles.ts";

/** At an open call's hint: how many outcomes no test gives the agent (or how many agents lack some); the hover names them. */
function untestedNotice(untested: ReadonlyArray<{ outcomes: string[] }>): string | undefined {
  if (untested.length === 0) return undefined;
  if (untested.length > 1) return `${untested.length} agents with outcomes untested`;
  const count = untested[0]?.outcomes.length ?? 0;
  return `${count} ${count === 1 ? "outcome" : "outcomes"} untested`;
}

/** The diagnostic code of an agent's untested outcomes. */
export const OUTCOME_NOT_TESTED = "outcome-not-tested";

export class WorkflowViews {
  readonly runs: WorkflowRuns;
  private root = process.cwd();
  /** The project's test files that import each workflow, found once per set of runs. */
  private readonly importers = new Map<string, Promise<string[]>>();

  constructor(
    private readonly state: ServerState,
    scheduler: Scheduler,
    private readonly configs: ProjectConfigs,
    onInitialize: Server["onInitialize"],
  ) {
    this.runs = new WorkflowRuns(state, scheduler);
    onInitialize((params) => {
      const root = params.rootUri ? fileOf(params.rootUri) : undefined;
      if (root) this.root = root;
    });
    scheduler.onDidEndRun.event(() => this.importers.clear());
    state.onDidOpen.event(() => this.importers.clear());
  }

  /** The coverage of the workflow document `uri`, when it is a workflow some test reached. */
  private workflowOf(uri: string): { file: string; workflow: WorkflowCoverage; lines: string[] } | undefined {
    const file = fileOf(uri);
    if (!file || isTestFile(file)) return undefined;
    const workflow = this.runs.coverage().workflows.find((each) => each.file === file);
    const text = this.state.documents.get(uri)?.getText() ?? this.runs.textOf(file);
    if (!workflow || text === undefined) return undefined;
    return { file, workflow, lines: text.split("\n") };
  }

  private callAt(uri: string, position: { line: number; character: number }) {
    const found = this.workflowOf(uri);
    if (!found) return undefined;
    const call = found.workflow.calls.find((each) => each.reached.length > 0 && rangeContains(callNameRange(found.lines, each.site, each.callee), position));
    return call ? { ...found, call } : undefined;
  }

  inlayHints(params: InlayHintParams): InlayHint[] {
    if (!this.state.globalSettings.inlayHints) return [];
    const found = this.workflowOf(params.textDocument.uri);
    if (!found) return [];
    // One hint per line: the calls on a line read together, in the order written.
    const byLine = new Map<number, { calls: CallCoverage[]; untested: string[] }>();
    for (const call of found.workflow.calls) {
      const { line } = positionOfSite(call.site.line, call.site.column);
      if (call.reached.length === 0 || !lineInRange(line, params.range)) continue;
      const untested = untestedNotice(this.untestedAt(found, call.site));
      const before = byLine.get(line) ?? { calls: [], untested: [] };
      byLine.set(line, { calls: [...before.calls, call], untested: [...before.untested, ...(untested ? [untested] : [])] });
    }
    // Whole within VS Code's default width: the fullest form that fits, else the tests' counts alone;
    // the untested outcomes' count while it fits (the hover names them either way).
    const label = ({ calls, untested }: { calls: CallCoverage[]; untested: string[] }) => {
      const candidates = [calls.map((call) => callSummary(call, HINT_WIDTH)), calls.map((call) => callSummary(call, 0))].flatMap((summaries) => [
        [summaries.join(" · "), ...untested].join("; "),
        summaries.join(" · "),
      ]);
      return candidates.find((candidate) => candidate.length <= HINT_WIDTH) ?? candidates.at(-1)!;
    };
    // A long line's hint stands where it is seen, after the first call's name, as a test file's does.
    return [...byLine]
      .sort(([left], [right]) => left - right)
      .map(([line, onLine]) => {
        const first = onLine.calls[0]!;
        return placedHint(found.lines, line, callNameRange(found.lines, first.site, first.callee).end, label(onLine));
      });
  }

  async hover(params: HoverParams): Promise<Hover | null> {
    const found = this.callAt(params.textDocument.uri, params.position);
    if (!found) return null;
    const notRun = await this.testFilesNotRun(found.file);
    return markdownHover(callMarkdown(found.call, notRun, this.untestedAt(found, found.call.site)), callNameRange(found.lines, found.call.site, found.call.callee));
  }

  /** The agents opened at `site` that some outcome no test gives, each with those outcomes (none unless the setting is on). */
  private untestedAt(found: { file: string; workflow: WorkflowCoverage }, site: SourceSite): Array<{ agent: string; outcomes: string[] }> {
    if (!this.state.globalSettings.outcomeCoverage) return [];
    return found.workflow.agents
      .filter((agent) => agent.openedAt?.file === found.file && agent.openedAt.line === site.line && agent.openedAt.column === site.column && agent.notGiven.length > 0)
      .map((agent) => ({ agent: agent.key, outcomes: agent.notGiven }));
  }

  /** The test files importing the workflow, with the project's config's include and exclude (only in a trusted workspace: a config is code). */
  private async projectTestFilesImporting(workflowFile: string): Promise<string[]> {
    const config = this.state.trusted ? await this.configs.ofFolder(this.root) : undefined;
    return testFilesImporting(workflowFile, this.root, config);
  }

  /** The workflow's test files that have no run in this server yet. */
  async testFilesNotRun(workflowFile: string): Promise<string[]> {
    let importers = this.importers.get(workflowFile);
    if (!importers) {
      importers = this.projectTestFilesImporting(workflowFile).catch(() => []);
      this.importers.set(workflowFile, importers);
    }
    const ran = this.runs.ranFiles();
    return (await importers).filter((file) => !ran.has(file));
  }

  references(params: ReferenceParams): Location[] {
    const found = this.callAt(params.textDocument.uri, params.position);
    if (!found) return [];
    const seen = new Set<string>();
    const locations: Location[] = [];
    for (const reach of found.call.reached) {
      for (const turn of reach.turns) {
        const site = turn.entry;
        if (!site || seen.has(`${site.file}:${site.line}:${site.column}`)) continue;
        seen.add(`${site.file}:${site.line}:${site.column}`);
        locations.push({ uri: pathToFileURL(site.file).href, range: this.siteRange(site) });
      }
    }
    return locations;
  }

  /** An entry's callee (`answer`, the `timedOut` of `noAnswer.timedOut()`), from its file's text. */
  private siteRange(site: SourceSite): Range {
    return siteWordRange(this.runs.textOf(site.file)?.split("\n") ?? [], site);
  }

  /** Once per agent at its open call: the outcomes no test gives it. */
  diagnostics(uri: string): Diagnostic[] {
    if (!this.state.globalSettings.outcomeCoverage) return [];
    const found = this.workflowOf(uri);
    if (!found) return [];
    const diagnostics: Diagnostic[] = [];
    for (const agent of found.workflow.agents) {
      const opened = agent.openedAt;
      if (!opened || opened.file !== found.file || agent.notGiven.length === 0) continue;
      const call = found.workflow.calls.find((each) => each.site.line === opened.line && each.site.column === opened.column);
      const range = call ? callNameRange(found.lines, call.site, call.callee) : siteCharacterRange(opened);
      diagnostics.push({
        range,
        // A Hint: the editor draws no squiggle and Problems lists none (it is no problem of the code),
        // while the quick fixes that add a test stay on the call.
        severity: DiagnosticSeverity.Hint,
        source: SOURCE,
        code: OUTCOME_NOT_TESTED,
        message: `no test gives ${JSON.stringify(agent.key)}: ${agent.notGiven.map((outcome) => outcomeKindWords(outcome)).join(", ")}`,
        data: { agent: agent.key, line: opened.line, column: opened.column },
      });
    }
    return diagnostics;
  }

  /** "Add a test where reviewer times out", for each agent whose open call meets the range. */
  codeActions(params: CodeActionParams): CodeAction[] {
    const only = params.context.only;
    if (only && !only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
    const uri = params.textDocument.uri;
    const found = this.workflowOf(uri);
    if (!found) return [];
    const here = this.diagnostics(uri).filter((diagnostic) => rangesMeet(diagnostic.range, params.range));
    const actions: CodeAction[] = [];
    for (const diagnostic of here) {
      const data = diagnostic.data as { agent?: string; line?: number; column?: number };
      const agent = found.workflow.agents.find((each) => each.key === data.agent && each.openedAt?.line === data.line && each.openedAt?.column === data.column);
      if (!agent) continue;
      for (const outcome of agent.notGiven) {
        if (!ENTRY_FOR_OUTCOME[outcome]) continue;
        for (const reach of nearestReaches(agent, found.file)) {
          const text = this.runs.textOf(reach.test.file);
          if (text === undefined) continue;
          const added = addOutcomeTest(agent.key, outcome, reach, text, analyzeTestFile(reach.test.file, text));
          if (!added) continue;
          actions.push({
            title: added.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            edit: { changes: { [pathToFileURL(added.file).href]: added.edits } },
          });
          break;
        }
      }
    }
    return actions;
  }
}
