// The mistakes in `event`/`events` visible without a run: an element naming neither or both of
// during and after, a during/after that is not "agent#n", and an event id given twice (awf's
// defaults awf.start and awf.test.{n} included). Worded through core's eventOptions.ts, and only
// where the run's message is certain too: the run skips an element it refused, and a claim the text
// cannot tell makes the first giver of an id unknown.

import ts from "typescript";
import { describe } from "../../core/testing/entries.ts";
import { eventIdGivenTwice, eventNeedsOneTurn, isTurnReference, notATurnReference } from "../../core/testing/eventOptions.ts";
import { START_EVENT_ID, testEventId } from "../../core/testing/scriptedEvents.ts";
import { isFunctionLike, literalValueOf, unwrapExpression } from "./literalValues.ts";
import type { StaticProblem } from "./model.ts";
import { rangeOfNode } from "./ranges.ts";
import type { AnalysisContext } from "./scriptEntries.ts";
import { isCertainlyAbsent, isCertainlyDefined, writtenExpression, writtenProperties, type WrittenProperties } from "./writtenProperties.ts";

/** What the run does with one event (the starting `event`, or an `events` element) as far as the text tells. */
type Claim =
  /** It is refused for its shape: it claims no id. */
  | { kind: "refused" }
  /** It claims this id (the starting event's: unless the workflow refuses it, which the text cannot tell). */
  | { kind: "id"; id: string }
  /** Its id (or whether it claims one) is not known. */
  | { kind: "unknown" };

/** The expression a name of this file's consts holds (followed a few steps), or the expression itself. */
function followConst(context: AnalysisContext, value: ts.Expression): ts.Expression {
  let expression = unwrapExpression(value);
  for (let depth = 0; depth < 4 && ts.isIdentifier(expression); depth++) {
    const initializer = context.constants.resolve(expression.text, expression.getStart(context.sourceFile));
    if (!initializer) break;
    expression = unwrapExpression(initializer);
  }
  return expression;
}

const stringLiteralOf = (expression: ts.Expression | undefined): string | undefined => {
  const literal = expression ? literalValueOf(expression) : undefined;
  return typeof literal?.value === "string" ? literal.value : undefined;
};

export function eventProblems(context: AnalysisContext, options: WrittenProperties): StaticProblem[] {
  const eventsValue = writtenExpression(options, "events");
  const events = eventsValue ? followConst(context, eventsValue) : undefined;
  if (!events || !ts.isArrayLiteralExpression(events)) return [];
  const problems: StaticProblem[] = [];
  // On a continue the earlier events' ids are given first; the text does not tell them.
  const idsKnown = isCertainlyAbsent(options, "earlier");
  // Where each id was given first, as the run's message names it; undefined once a claim the
  // text cannot read came before, which may have given it first.
  const ids = new Map<string, string | undefined>();
  let unknownBefore = false;
  const claim = (found: Claim, where: string, element?: ts.Expression, index?: number) => {
    if (found.kind === "refused") return;
    if (found.kind === "unknown") {
      unknownBefore = true;
      return;
    }
    if (!ids.has(found.id)) {
      ids.set(found.id, unknownBefore ? undefined : where);
      return;
    }
    const first = ids.get(found.id);
    if (first === undefined || !idsKnown || !element || index === undefined) return;
    problems.push({ code: "event-id-reused", message: eventIdGivenTwice(found.id, first, where), range: rangeOfNode(context.sourceFile, element), option: "events", index });
  };

  const eventValue = writtenExpression(options, "event");
  if (eventValue !== undefined) claim(startEventClaim(context, eventValue), "event");
  else if (!isCertainlyAbsent(options, "event")) claim({ kind: "unknown" }, "event");

  for (const [position, element] of events.elements.entries()) {
    // What a spread holds is not known, so no later element has a known position.
    if (ts.isSpreadElement(element)) break;
    const where = `events[${position}]`;
    const read = readElement(context, element, where, position);
    if (read.problem) problems.push({ ...read.problem, range: rangeOfNode(context.sourceFile, element), option: "events", index: position });
    claim(read.claim, where, element, position);
  }
  return problems;
}

/** The starting event claims its id (awf.start by default) once the run accepts it; its acceptance depends on the workflow, so the id counts as given. */
function startEventClaim(context: AnalysisContext, value: ts.Expression): Claim {
  const expression = followConst(context, value);
  if (!ts.isObjectLiteralExpression(expression)) return literalValueOf(expression) ? { kind: "refused" } : { kind: "unknown" };
  const properties = writtenProperties(expression);
  const name = writtenExpression(properties, "name");
  if (stringLiteralOf(name) !== undefined) return idClaim(properties, START_EVENT_ID);
  return isCertainlyAbsent(properties, "name") || (name && literalValueOf(name)) ? { kind: "refused" } : { kind: "unknown" };
}

/** The id an event whose shape is accepted claims: its eventId written as a string, else the default. */
function idClaim(properties: WrittenProperties, defaultId: string): Claim {
  if (isCertainlyAbsent(properties, "eventId")) return { kind: "id", id: defaultId };
  const eventId = writtenExpression(properties, "eventId");
  const literal = eventId ? literalValueOf(eventId) : undefined;
  if (!literal) return { kind: "unknown" };
  return typeof literal.value === "string" ? { kind: "id", id: literal.value } : { kind: "refused" };
}

interface ReadElement {
  claim: Claim;
  problem?: Pick<StaticProblem, "code" | "message">;
}

/** core's readEventOptions for one element, in its order: its shape and name, during or after, the turn, the eventId. */
function readElement(context: AnalysisContext, written: ts.Expression, where: string, position: number): ReadElement {
  const element = followConst(context, written);
  if (!ts.isObjectLiteralExpression(element)) {
    // A literal, list or function is refused for its shape (not checked here); a name or a call is not known.
    const refused = literalValueOf(element) || ts.isArrayLiteralExpression(element) || ts.isTemplateExpression(element) || isFunctionLike(element);
    return { claim: refused ? { kind: "refused" } : { kind: "unknown" } };
  }
  const properties = writtenProperties(element);
  const nameExpression = writtenExpression(properties, "name");
  const name = stringLiteralOf(nameExpression);
  if (name === undefined) {
    const refused = isCertainlyAbsent(properties, "name") || (nameExpression !== undefined && literalValueOf(nameExpression) !== undefined);
    return { claim: refused ? { kind: "refused" } : { kind: "unknown" } };
  }
  const during = timeOf(properties, "during");
  const after = timeOf(properties, "after");
  if (during === "unknown" || after === "unknown") return { claim: { kind: "unknown" } };
  if (during === after) return { claim: { kind: "refused" }, problem: { code: "option-invalid", message: eventNeedsOneTurn(where, name) } };
  const when = during === "given" ? "during" : "after";
  const reference = writtenExpression(properties, when);
  const literal = reference ? literalValueOf(reference) : undefined;
  if (!literal) return { claim: { kind: "unknown" } };
  if (!isTurnReference(literal.value)) {
    return { claim: { kind: "refused" }, problem: { code: "option-invalid", message: notATurnReference(where, when, describe(literal.value)) } };
  }
  return { claim: idClaim(properties, testEventId(position + 1)) };
}

/** Whether the element certainly gives `during`/`after` a value, certainly does not, or may. */
function timeOf(properties: WrittenProperties, name: "during" | "after"): "given" | "absent" | "unknown" {
  if (isCertainlyAbsent(properties, name)) return "absent";
  return isCertainlyDefined(properties.byName.get(name)?.value) ? "given" : "unknown";
}
