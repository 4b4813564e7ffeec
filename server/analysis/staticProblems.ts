// The mistakes in a testWorkflow call that need no run: an option it doesn't take, a script that
// is plainly not an entry, an empty list, an events element or options the run refuses. Worded
// exactly as core words them when the test runs.

import ts from "typescript";
import { COMMON_OPTIONS, EVENT_OPTIONS, unknownOption as unknownOptionWords } from "../../core/testing/options.ts";
import {
  describeExpression,
  isCertainlyNotAnEntry,
  isCertainlyNotAnObject,
  propertyKeyOf,
  unwrapExpression,
} from "./literalValues.ts";
import { eventProblems } from "./eventProblems.ts";
import type { StaticProblem } from "./model.ts";
import { optionPairProblems } from "./optionPairProblems.ts";
import { rangeOfNode } from "./ranges.ts";
import type { AnalysisContext } from "./scriptEntries.ts";
import { emptyScriptList, notAnEntryScript, scriptLabel } from "../../core/testing/scripts.ts";
import { scriptOptionProblems } from "./scriptOptionProblems.ts";
import { writtenProperties } from "./writtenProperties.ts";

/**
 * The names the static pass takes: every common option, and `event`/`events`, since it cannot
 * tell whether the workflow declares events (core refuses them only for one that declares none).
 */
export const KNOWN_OPTIONS: readonly string[] = [...COMMON_OPTIONS, ...EVENT_OPTIONS];

export function problemsOfOptions(sourceFile: ts.SourceFile, options: ts.ObjectLiteralExpression): StaticProblem[] {
  const problems: StaticProblem[] = [];
  for (const property of options.properties) {
    if (ts.isSpreadAssignment(property)) continue;
    const name = propertyKeyOf(property.name);
    if (name === undefined) continue;
    if (!KNOWN_OPTIONS.includes(name)) {
      problems.push(unknownOption(sourceFile, name, property.name));
      continue;
    }
    if (!ts.isPropertyAssignment(property)) continue;
    if (name === "agents") problems.push(...agentsProblems(sourceFile, property.initializer));
    if (name === "decisions") problems.push(...decisionsProblems(sourceFile, property.initializer));
  }
  return problems;
}

/**
 * The checks of `compactions`, `messages`, `participants`, `event`/`events`, `values` and `files`,
 * run once the whole file is walked: they follow names to consts declared further down.
 */
export function problemsOfOptionsAfterWalk(context: AnalysisContext, options: ts.ObjectLiteralExpression): StaticProblem[] {
  const given = writtenProperties(options);
  return [...scriptOptionProblems(context, given), ...eventProblems(context, given), ...optionPairProblems(context, given)];
}

/** Adds problems not already there: an events array in a const, given to several calls, is checked once per call. */
export function addProblems(into: StaticProblem[], found: readonly StaticProblem[]): void {
  const key = (problem: StaticProblem) => JSON.stringify([problem.code, problem.message, problem.range]);
  const known = new Set(into.map(key));
  for (const problem of found) if (!known.has(key(problem))) into.push(problem);
}

function unknownOption(sourceFile: ts.SourceFile, name: string, nameNode: ts.Node): StaticProblem {
  return { code: "unknown-option", ...unknownOptionWords(name, KNOWN_OPTIONS), range: rangeOfNode(sourceFile, nameNode), option: name };
}

/** core/testing/scripts.ts `readScripts`, for what can be judged without running. */
function agentsProblems(sourceFile: ts.SourceFile, value: ts.Expression): StaticProblem[] {
  if (isCertainlyNotAnObject(value, { functions: false, undefined: true })) {
    return [invalid(sourceFile, value, `agents must map a key to a script, not ${describeExpression(sourceFile, value)}`, "agents")];
  }
  const object = unwrapExpression(value);
  if (!ts.isObjectLiteralExpression(object)) return [];
  const problems: StaticProblem[] = [];
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const key = propertyKeyOf(property.name);
    if (key === undefined) continue;
    const label = scriptLabel("agents", key);
    const script = unwrapExpression(property.initializer);
    if (ts.isArrayLiteralExpression(script)) {
      if (script.elements.length === 0) {
        problems.push({
          code: "script-empty-list",
          message: emptyScriptList(label, "turn"),
          range: rangeOfNode(sourceFile, script),
          option: "agents",
          key,
        });
        continue;
      }
      const bad = script.elements.findIndex(
        (element) => ts.isOmittedExpression(element) || (!ts.isSpreadElement(element) && isCertainlyNotAnEntry(element)),
      );
      if (bad >= 0) {
        const message = notAnEntryScript(label, describeExpression(sourceFile, script));
        problems.push({ ...invalid(sourceFile, property.initializer, message, "agents"), key, index: bad });
      }
    } else if (isCertainlyNotAnEntry(script)) {
      const message = notAnEntryScript(label, describeExpression(sourceFile, script));
      problems.push({ ...invalid(sourceFile, property.initializer, message, "agents"), key });
    }
  }
  return problems;
}

/** core/testing/scriptedDecisions.ts `readDecisionScripts`, for what can be judged without running. */
function decisionsProblems(sourceFile: ts.SourceFile, value: ts.Expression): StaticProblem[] {
  if (isCertainlyNotAnObject(value, { functions: false, undefined: true })) {
    return [
      invalid(sourceFile, value, `decisions must map a decision key to its answers, not ${describeExpression(sourceFile, value)}`, "decisions"),
    ];
  }
  const object = unwrapExpression(value);
  if (!ts.isObjectLiteralExpression(object)) return [];
  const problems: StaticProblem[] = [];
  for (const property of object.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const key = propertyKeyOf(property.name);
    if (key === undefined || !isCertainlyNotAnObject(property.initializer, { functions: true, undefined: false })) continue;
    const message = `decisions[${JSON.stringify(key)}] must be answers by question id, an Error or a function, not ${describeExpression(sourceFile, property.initializer)}`;
    problems.push({ ...invalid(sourceFile, property.initializer, message, "decisions"), key });
  }
  return problems;
}

function invalid(sourceFile: ts.SourceFile, value: ts.Expression, message: string, option: string): StaticProblem {
  return { code: "script-invalid", message, range: rangeOfNode(sourceFile, value), option };
}
