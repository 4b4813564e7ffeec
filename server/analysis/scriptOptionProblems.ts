// The mistakes in `compactions`, `messages` and `participants` visible without a run: an empty
// list, something written where an entry (or a function) goes that certainly is not one. Worded
// through core's own functions, as the run's refusals (core/testing/scripts.ts,
// scriptedMessages.ts, scriptedParticipants.ts).

import ts from "typescript";
import { notAMessageScript } from "../../core/testing/scriptedMessages.ts";
import { notAParticipantScript } from "../../core/testing/scriptedParticipants.ts";
import { emptyScriptList, notAnEntryScript, scriptLabel, type ScriptUnit } from "../../core/testing/scripts.ts";
import { describeWritten } from "./describedValues.ts";
import { isCertainlyNotAnEntry, isFunctionLike, literalValueOf, unwrapExpression } from "./literalValues.ts";
import type { StaticProblem } from "./model.ts";
import { rangeOfNode } from "./ranges.ts";
import { entryCallOf, type AnalysisContext } from "./scriptEntries.ts";
import { writtenExpression, writtenProperties, type WrittenProperties } from "./writtenProperties.ts";

/** The problems of the `compactions`, `messages` and `participants` objects among the options. */
export function scriptOptionProblems(context: AnalysisContext, options: WrittenProperties): StaticProblem[] {
  const problems: StaticProblem[] = [];
  const compactions = objectOf(writtenExpression(options, "compactions"));
  if (compactions) problems.push(...listScriptProblems(context, compactions, "compactions"));
  const messages = objectOf(writtenExpression(options, "messages"));
  if (messages) problems.push(...listScriptProblems(context, messages, "messages"));
  const participants = objectOf(writtenExpression(options, "participants"));
  if (participants) problems.push(...participantProblems(context, participants));
  return problems;
}

function objectOf(value: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  const object = value ? unwrapExpression(value) : undefined;
  return object && ts.isObjectLiteralExpression(object) ? object : undefined;
}

const UNIT: Record<"compactions" | "messages", ScriptUnit> = { compactions: "compaction", messages: "message" };

/**
 * `compactions` takes answer(…)/noAnswer.…() or a list of them (core's readScripts); `messages` a
 * function, a noAnswer or a list of them (readMessageScripts), and answer(…) is none of those.
 */
function listScriptProblems(context: AnalysisContext, object: ts.ObjectLiteralExpression, option: "compactions" | "messages"): StaticProblem[] {
  const { sourceFile } = context;
  const problems: StaticProblem[] = [];
  for (const [key, written] of writtenProperties(object).byName) {
    const value = written.value;
    if (value?.kind !== "expression") continue;
    const label = scriptLabel(option, key);
    const script = unwrapExpression(value.expression);
    const notEntry = option === "compactions" ? isCertainlyNotAnEntry : (node: ts.Expression) => isCertainlyNotAMessageEntry(context, node);
    const refused = () => (option === "compactions" ? notAnEntryScript : notAMessageScript)(label, describeWritten(context, value.expression));
    if (ts.isArrayLiteralExpression(script)) {
      if (script.elements.length === 0) {
        problems.push({ code: "script-empty-list", message: emptyScriptList(label, UNIT[option]), range: rangeOfNode(sourceFile, script), option, key });
        continue;
      }
      // core finds a hole in a compactions list (it reads as undefined); a messages list's checks skip it.
      const bad = script.elements.findIndex((element) =>
        ts.isOmittedExpression(element) ? option === "compactions" : !ts.isSpreadElement(element) && notEntry(element),
      );
      if (bad >= 0) problems.push({ code: "script-invalid", message: refused(), range: rangeOfNode(sourceFile, value.expression), option, key, index: bad });
    } else if (notEntry(script)) {
      problems.push({ code: "script-invalid", message: refused(), range: rangeOfNode(sourceFile, value.expression), option, key });
    }
  }
  return problems;
}

/** Certainly neither a function nor a noAnswer: a literal, a template, a list, a plain object, or answer(…). */
function isCertainlyNotAMessageEntry(context: AnalysisContext, node: ts.Expression): boolean {
  const expression = unwrapExpression(node);
  if (isFunctionLike(expression)) return false;
  const entry = entryCallOf(context.bindings, expression);
  if (entry) return entry.kind === "answer";
  return isCertainlyNotAnEntry(expression);
}

/** Each participant's script must be a function (core's readParticipantScripts). */
function participantProblems(context: AnalysisContext, object: ts.ObjectLiteralExpression): StaticProblem[] {
  const problems: StaticProblem[] = [];
  for (const [key, written] of writtenProperties(object).byName) {
    const value = written.value;
    if (value?.kind !== "expression" || !isCertainlyNotAFunction(context, value.expression)) continue;
    problems.push({
      code: "script-invalid",
      message: notAParticipantScript(key, describeWritten(context, value.expression)),
      range: rangeOfNode(context.sourceFile, value.expression),
      option: "participants",
      key,
    });
  }
  return problems;
}

/** A literal (undefined too), a template, a list, an object (a spread copies no callable), or an entry. */
function isCertainlyNotAFunction(context: AnalysisContext, node: ts.Expression): boolean {
  const expression = unwrapExpression(node);
  if (isFunctionLike(expression)) return false;
  if (ts.isObjectLiteralExpression(expression) || ts.isArrayLiteralExpression(expression) || ts.isTemplateExpression(expression)) return true;
  if (entryCallOf(context.bindings, expression)) return true;
  return literalValueOf(expression) !== undefined;
}
