// The quick fix Turnlens offers for a test's mistake, in words and as the entry text it writes:
// the language server turns these into edits (server/views/fixes.ts), `turnlens test`'s agent reporter
// prints them, so both say the same fix. Pure functions of a ProblemTrace, no source ranges.
import { Value } from "typebox/value";
import { PROBLEM_CODES } from "./problemCodes.ts";
import type { ProblemTrace } from "./trace.ts";
import type { Question } from "../workflow/types.ts";
import { validAnswer } from "./validAnswer.ts";

/** A named schema and the value TypeBox builds for it (core/execution/schemaNames.ts finds them). */
export interface NamedSchema {
  name: string;
  module: string;
  skeleton?: unknown;
}

/** A JSON value written as a TypeScript literal: bare keys where they can be, one line. */
export function jsLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value as Record<string, unknown>).filter(([, field]) => field !== undefined);
    if (fields.length === 0) return "{}";
    return `{ ${fields.map(([key, field]) => `${propertyName(key)}: ${jsLiteral(field)}`).join(", ")} }`;
  }
  return value === undefined ? "undefined" : JSON.stringify(value);
}

/** A property key as TypeScript writes it: bare when it can be, quoted otherwise. */
export function propertyName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * The text of a new entry for a turn: `answer(NAME, value)` with the smallest value NAME accepts,
 * or `answer("")` for a text turn; none for an unnamed schema.
 */
export function answerText(schema: unknown, named: NamedSchema | undefined): string | undefined {
  if (schema === undefined) return `answer("")`;
  if (!named) return undefined;
  // TypeBox's Value.Create of the export where it passes the schema (it refuses a pattern or a
  // format, and a JSON schema off the wire has lost the kinds it reads); validAnswer's value else.
  const created = named.skeleton !== undefined && accepts(schema, named.skeleton) ? named.skeleton : undefined;
  return `answer(${named.name}, ${jsLiteral(created ?? validAnswer(schema).value)})`;
}

function accepts(schema: unknown, value: unknown): boolean {
  try {
    return Value.Check(schema as never, value);
  } catch {
    return false;
  }
}

/** The entries a fix may write for a turn, the preferred one first: an answer where one can be written, else `noAnswer.silent()`. */
export function entryChoices(schema: unknown, named: NamedSchema | undefined): Array<{ text: string; kind: "answer" | "noAnswer"; preferred: boolean }> {
  const answer = answerText(schema, named);
  const choices: Array<{ text: string; kind: "answer" | "noAnswer"; preferred: boolean }> = [];
  if (answer) choices.push({ text: answer, kind: "answer", preferred: true });
  choices.push({ text: "noAnswer.silent()", kind: "noAnswer", preferred: !answer });
  return choices;
}

/**
 * A `decisions` script for a decision no script met: each question it asked answered as the page's
 * shorthand allows (a choice's first option, a score's lowest level, a yes-no's `true`), one line.
 */
export function decisionScriptText(questions: Readonly<Record<string, Question>>): string {
  const answers: Record<string, unknown> = {};
  for (const [id, question] of Object.entries(questions)) answers[id] = shorthandAnswer(question);
  return jsLiteral(answers);
}

function shorthandAnswer(question: Question): string | number | boolean {
  switch (question.kind) {
    case "choice":
      return Object.keys(question.options)[0] ?? "";
    case "score":
      return 0;
    case "yes-no":
      return true;
    default:
      return question satisfies never;
  }
}

export const fixTitles = {
  rename: (written: string, suggestion: string) => `Rename "${written}" to "${suggestion}"`,
  addEntry: (entry: string, agent: string, turn: number) => `Add ${entry} for ${agent} turn ${turn}`,
  addScript: (agent: string, entry: string) => `Add a script for "${agent}": ${entry}`,
  addDecisionScript: (key: string, script: string) => `Add a script for decision "${key}": ${script}`,
  answerWith: (name: string) => `Answer with ${name}`,
  removeUnreached: (entries: number) => (entries === 1 ? "Remove this entry never reached" : "Remove the entries never reached"),
  removeNeverAsked: (key: string) => `Remove the script of "${key}", never asked`,
};

/** What the fix needs beyond the problem: the schema of the turn it is about, and the name an export gives a schema. */
export interface FixContext {
  turnSchema?: unknown;
  /** The questions of the decision the problem is about, as the run asked them. */
  decisionQuestions?: Readonly<Record<string, Question>>;
  nameOf?: (schema: unknown) => NamedSchema | undefined;
}

/**
 * The title of the fix the editor offers first for `problem` (its preferred quick fix), or
 * undefined when Turnlens offers none for it: the code's fix in problemCodes.ts, in words.
 */
export function preferredFixTitle(problem: ProblemTrace, context: FixContext = {}): string | undefined {
  const named = (schema: unknown) => (schema === undefined || schema === "text" ? undefined : context.nameOf?.(schema));
  const fix = PROBLEM_CODES[problem.code].fix;
  switch (fix) {
    case "rename":
      return problem.suggestion && problem.option ? fixTitles.rename(problem.option, problem.suggestion) : undefined;
    case "removeUnreached":
      return fixTitles.removeUnreached(Math.max(1, problem.sites?.length ?? 1));
    case "removeNeverAsked": {
      const key = problem.key ?? problem.pattern;
      return key === undefined ? undefined : fixTitles.removeNeverAsked(key);
    }
    case "addEntry": {
      if (!problem.agent || !problem.turn) return undefined;
      const entry = entryChoices(context.turnSchema, named(context.turnSchema)).find((choice) => choice.preferred)!;
      return fixTitles.addEntry(entry.text, problem.agent, problem.turn);
    }
    case "addScript": {
      if (!problem.agent) return undefined;
      const entry = entryChoices(context.turnSchema, named(context.turnSchema)).find((choice) => choice.preferred)!;
      return fixTitles.addScript(problem.agent, entry.text);
    }
    case "addDecisionScript":
      return problem.decision !== undefined && context.decisionQuestions
        ? fixTitles.addDecisionScript(problem.decision, decisionScriptText(context.decisionQuestions))
        : undefined;
    case "answerWith": {
      const expected = named(problem.expectedSchema);
      return expected ? fixTitles.answerWith(expected.name) : undefined;
    }
    // The fill keeps what the test wrote where it is valid: only the editor, which reads the text, can write it.
    case "fill":
    case "none":
      return undefined;
    default:
      return fix satisfies never;
  }
}
