// The mistakes in a testWorkflow call that need no run, found by core's own option checks
// (core/testing/optionsBeforeRun.ts) on what the text makes certain: this file only hands them
// the written values and shows each problem where it was written.

import ts from "./typescript.ts";
import { eventKeyAtFault } from "../../core/testing/eventKeyAtFault.ts";
import { problemsBeforeRun } from "../../core/testing/optionsBeforeRun.ts";
import type { ProblemTrace } from "../../core/testing/trace.ts";
import { propertyKeyOf, unwrapExpression } from "./literalValues.ts";
import type { StaticProblem, StaticProblemCode } from "./model.ts";
import { rangeOfNode } from "./ranges.ts";
import type { AnalysisContext } from "./scriptEntries.ts";
import { writtenOptions, type WrittenOptions } from "./writtenValues.ts";

/** Run once the whole file is walked: `event` and `events` follow names to consts declared further down. */
export function problemsOfOptionsAfterWalk(context: AnalysisContext, options: ts.ObjectLiteralExpression): StaticProblem[] {
  const written = writtenOptions(context, options);
  return problemsBeforeRun(written.given).flatMap((problem) => {
    const node = nodeOf(written, problem);
    return node ? [staticProblem(context, problem, node)] : [];
  });
}

/** Adds problems not already there: an events array in a const, given to several calls, is checked once per call. */
export function addProblems(into: StaticProblem[], found: readonly StaticProblem[]): void {
  const key = (problem: StaticProblem) => JSON.stringify([problem.code, problem.message, problem.range]);
  const known = new Set(into.map(key));
  for (const problem of found) if (!known.has(key(problem))) into.push(problem);
}

/**
 * Where a problem is shown: a name not taken, and a refusal of two options together, on the
 * option's name; a script on its value (an empty list on the list itself); a whole option on
 * its value; an `events` element on the element.
 */
function nodeOf(written: WrittenOptions, problem: ProblemTrace): ts.Node | undefined {
  const option = problem.option ?? "";
  if (problem.code === "unknown-option") return written.names.get(option);
  if (option === "events" && typeof problem.index === "number") return eventNode(written.events.get(problem.index), problem);
  if (problem.code === "script-invalid" || problem.code === "script-empty-list") {
    const script = problem.key !== undefined ? written.scripts.get(option)?.get(problem.key) : written.values.get(option);
    return script && problem.code === "script-empty-list" ? unwrapExpression(script) : script;
  }
  return written.names.get(option);
}

/** An `events` element's problem: on the key at fault in it (core/testing/eventKeyAtFault.ts), else the element. */
function eventNode(element: ts.Node | undefined, problem: ProblemTrace): ts.Node | undefined {
  const unwrapped = element && ts.isExpression(element) ? unwrapExpression(element) : undefined;
  const object = unwrapped && ts.isObjectLiteralExpression(unwrapped) ? unwrapped : undefined;
  if (!object) return element;
  const keys = object.properties.map((property) => (property.name ? propertyKeyOf(property.name) : undefined));
  const key = eventKeyAtFault(
    problem,
    keys.filter((written): written is string => written !== undefined),
  );
  const index = key === undefined ? -1 : keys.indexOf(key);
  return index >= 0 ? object.properties[index]!.name : element;
}

function staticProblem(context: AnalysisContext, problem: ProblemTrace, node: ts.Node): StaticProblem {
  return {
    code: problem.code as StaticProblemCode,
    message: problem.message,
    range: rangeOfNode(context.sourceFile, node),
    ...(problem.option !== undefined ? { option: problem.option } : {}),
    ...(problem.suggestion !== undefined ? { suggestion: problem.suggestion } : {}),
    ...(problem.key !== undefined ? { key: problem.key } : {}),
    ...(typeof problem.index === "number" ? { index: problem.index } : {}),
  };
}
