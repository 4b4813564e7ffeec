// Quick fixes from the fixes each diagnostic carries (rename an option, remove entries never
// reached, add the entry or the script a turn needed, fill a refused answer), "remove every entry
// never reached", "Fill with a valid answer" on an empty `answer(SCHEMA, {})`, and a fix-all
// (`source.fixAll.turnlens`) applying each diagnostic's preferred fix.
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from "vscode-languageserver";
import { rangesMeet } from "../analysis/ranges.ts";
import { answerEntryAt } from "../answerSchemas.ts";
import { writtenValueAt } from "../analysis/writtenAnswer.ts";
import { combineFixes, fillAnswerFix, type Fix } from "../views/fixes.ts";
import type { Server } from "../server.ts";
import type { TurnlensDiagnostic } from "../views/toLsp.ts";
import { currentDiagnostics, wireDiagnostic } from "../views/shownDiagnostics.ts";

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.turnlens`;

/** The preferred fixes of every diagnostic, removals of unreached entries as one fix. */
export function fixAll(diagnostics: TurnlensDiagnostic[]): TextEdit[] {
  const removeAll = diagnostics.find((diagnostic) => diagnostic.data.removeAll)?.data.removeAll;
  const fixes: Fix[] = removeAll ? [removeAll] : [];
  for (const diagnostic of diagnostics) {
    if (removeAll && diagnostic.data.removeAll) continue;
    const preferred = diagnostic.data.fixes.find((fix) => fix.preferred);
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
      const diagnostics = currentDiagnostics(state, uri);
      const edit = (edits: TextEdit[]) => ({ changes: { [uri]: edits } });
      const only = params.context.only;
      const wantsFixAll = only?.some((kind) => FIX_ALL_KIND.startsWith(kind) && kind.startsWith(CodeActionKind.Source));
      if (wantsFixAll) {
        const edits = fixAll(diagnostics);
        return edits.length > 0 ? [{ title: "Fix all Turnlens problems", kind: FIX_ALL_KIND, edit: edit(edits) }] : [];
      }
      if (only && !only.some((kind) => CodeActionKind.QuickFix.startsWith(kind))) return [];
      const actions: CodeAction[] = [];
      const here = diagnostics.filter((diagnostic) => rangesMeet(diagnostic.range, params.range));
      for (const diagnostic of here) {
        for (const fix of diagnostic.data.fixes) {
          actions.push({
            title: fix.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [wireDiagnostic(diagnostic)],
            isPreferred: fix.preferred === true,
            edit: edit(fix.edits),
          });
        }
      }
      const removeAll = here.find((diagnostic) => diagnostic.data.removeAll)?.data.removeAll;
      if (removeAll)
        actions.push({
          title: removeAll.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: here.filter((d) => d.data.removeAll).map(wireDiagnostic),
          edit: edit(removeAll.edits),
        });
      const fill = fillEmptyAnswer(server, uri, params);
      if (fill && !actions.some((action) => action.title === fill.title)) actions.push({ title: fill.title, kind: CodeActionKind.QuickFix, edit: edit(fill.edits) });
      const fixable = diagnostics.filter((diagnostic) => diagnostic.data.fixes.some((fix) => fix.preferred));
      if (here.some((diagnostic) => diagnostic.data.fixes.length > 0) && fixable.length > 1) {
        actions.push({ title: "Fix all Turnlens problems in this file", kind: CodeActionKind.QuickFix, edit: edit(fixAll(diagnostics)) });
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
