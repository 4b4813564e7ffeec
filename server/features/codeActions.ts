// Quick fixes made when they are asked, from what each diagnostic's fixes need (rename an option,
// remove entries never reached, add the entry or the script a turn needed, fill a refused answer),
// "remove every entry never reached", "Fill with a valid answer" on an empty `answer(SCHEMA, {})`,
// a fix-all (`source.fixAll.turnlens`) applying each diagnostic's preferred fix, and "Update this
// snapshot" on a failed snapshot's diagnostic (a command: snapshotUpdates.ts reruns the test with -u).
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from "vscode-languageserver";
import { rangesMeet } from "../analysis/ranges.ts";
import { answerEntryAt } from "../answerSchemas.ts";
import { writtenValueAt } from "../analysis/writtenAnswer.ts";
import { combineFixes, fillAnswerFix, fixesOf, removeEveryUnreached, type Fix, type FixSource, type Unreached } from "../views/fixes.ts";
import type { Server } from "../server.ts";
import type { TurnlensDiagnostic } from "../views/toLsp.ts";
import { currentDiagnostics, wireDiagnostic } from "../views/shownDiagnostics.ts";
import { snapshotUpdateAction } from "../views/snapshotActions.ts";

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.turnlens`;

/** A diagnostic with its fixes made, and the file's "remove every entry never reached" on an unreached entry's. */
interface Fixed {
  diagnostic: TurnlensDiagnostic;
  fixes: Fix[];
  removeAll?: Fix;
}

/** The fixes of a file's diagnostics, each diagnostic's made the first time it is asked for (the one "remove every…" fix shared). */
class FileFixes {
  private readonly made = new Map<TurnlensDiagnostic, Fixed>();
  private readonly removeAll = new Map<Unreached[], Fix>();

  constructor(
    readonly diagnostics: TurnlensDiagnostic[],
    private readonly source: FixSource,
  ) {}

  of(diagnostic: TurnlensDiagnostic): Fixed {
    let made = this.made.get(diagnostic);
    if (made) return made;
    made = { diagnostic, fixes: diagnostic.data.fixes.flatMap((need) => fixesOf(need, this.source)) };
    const unreached = diagnostic.data.removeAll;
    if (unreached) {
      if (!this.removeAll.has(unreached)) this.removeAll.set(unreached, removeEveryUnreached(unreached));
      made.removeAll = this.removeAll.get(unreached)!;
    }
    this.made.set(diagnostic, made);
    return made;
  }

  all(): Fixed[] {
    return this.diagnostics.map((diagnostic) => this.of(diagnostic));
  }
}

/** The preferred fixes of every diagnostic, removals of unreached entries as one fix. */
function fixAll(diagnostics: Fixed[]): TextEdit[] {
  const removeAll = diagnostics.find((diagnostic) => diagnostic.removeAll)?.removeAll;
  const fixes: Fix[] = removeAll ? [removeAll] : [];
  for (const diagnostic of diagnostics) {
    if (removeAll && diagnostic.removeAll) continue;
    const preferred = diagnostic.fixes.find((fix) => fix.preferred);
    if (preferred) fixes.push(preferred);
  }
  return combineFixes(fixes);
}

export function register(server: Server): void {
  const { connection, state } = server;
  server.onInitialize((_params, result) => {
    result.capabilities.codeActionProvider = { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] };
  });
  connection.onCodeAction(
    server.guardRequest("codeAction", (params: CodeActionParams): CodeAction[] => {
      const uri = params.textDocument.uri;
      if (!state.get(uri)) return server.workflowViews.codeActions(params);
      // Fixes made from older text would edit the wrong places: none while an edit's pass waits.
      if (state.changeWaits(uri)) return [];
      const analysis = state.analysis(uri);
      const document = state.documents.get(uri);
      if (!analysis || !document) return [];
      // A run's diagnostics are current only while the document's text is the one the run ran.
      const fixes = new FileFixes(currentDiagnostics(state, uri), { document, text: analysis.text, model: analysis.model });
      const edit = (edits: TextEdit[]) => ({ changes: { [uri]: edits } });
      const only = params.context.only;
      const wantsFixAll = only?.some((kind) => FIX_ALL_KIND.startsWith(kind) && kind.startsWith(CodeActionKind.Source));
      if (wantsFixAll) {
        const edits = fixAll(fixes.all());
        return edits.length > 0 ? [{ title: "Fix all Turnlens problems", kind: FIX_ALL_KIND, edit: edit(edits) }] : [];
      }
      if (only && !only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
      const actions: CodeAction[] = [];
      const here = fixes.diagnostics.filter((diagnostic) => rangesMeet(diagnostic.range, params.range)).map((diagnostic) => fixes.of(diagnostic));
      for (const { diagnostic, fixes: fixesHere } of here) {
        for (const fix of fixesHere) {
          actions.push({
            title: fix.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [wireDiagnostic(diagnostic)],
            isPreferred: fix.preferred === true,
            edit: edit(fix.edits),
          });
        }
      }
      const removeAll = here.find((diagnostic) => diagnostic.removeAll)?.removeAll;
      if (removeAll)
        actions.push({
          title: removeAll.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: here.filter((d) => d.removeAll).map((d) => wireDiagnostic(d.diagnostic)),
          edit: edit(removeAll.edits),
        });
      const report = state.currentResults(uri)?.report;
      for (const { diagnostic } of here) {
        const update = report && snapshotUpdateAction(uri, report, diagnostic);
        if (update) actions.push({ ...update, diagnostics: [wireDiagnostic(diagnostic)] });
      }
      const fill = fillEmptyAnswer(server, uri, params);
      if (fill && !actions.some((action) => action.title === fill.title)) actions.push({ title: fill.title, kind: CodeActionKind.QuickFix, edit: edit(fill.edits) });
      // The file's other diagnostics' fixes are made only when one here has a fix.
      if (here.some((diagnostic) => diagnostic.fixes.length > 0) && fixes.all().filter((diagnostic) => diagnostic.fixes.some((fix) => fix.preferred)).length > 1) {
        actions.push({ title: "Fix all Turnlens problems in this file", kind: CodeActionKind.QuickFix, edit: edit(fixAll(fixes.all())) });
      }
      return actions;
    }),
  );
}

/** "Fill with a valid answer" on an `answer(SCHEMA, {})` under the cursor whose schema a run told, refused or not yet run. */
function fillEmptyAnswer(server: Server, uri: string, params: CodeActionParams): Fix | undefined {
  const analysis = server.state.analysis(uri);
  const document = server.state.documents.get(uri);
  if (!analysis || !document) return undefined;
  const entry = answerEntryAt(analysis.model, params.range.start);
  if (!entry?.valueRange) return undefined;
  // `{}`, or `{} as never`: a cast is what an empty answer needs to type-check.
  const written = writtenValueAt(analysis.text, entry.valueRange);
  if (written?.kind !== "object" || written.members.length > 0) return undefined;
  const schema = server.answerSchemas.schemaOf(uri, entry);
  if (schema === undefined || schema === "text") return undefined;
  return fillAnswerFix(document, entry.valueRange, written, schema);
}
