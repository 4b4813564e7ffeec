// One entry per problem code a test can make: its severity, where the editor places it, the quick
// fix it offers, whether the static pass finds it too, and its row in docs/language-server.md's
// Diagnostics table. The switches over codes (problemFixes.ts, the server's runView.ts, the
// reporters' core/execution/failureLocation.ts) read it;
// test/core/problemCodes.test.ts checks the docs against it.
import type { ProblemCode } from "./trace.ts";

/** `error`, or `neverReached`: the `entryNeverReachedSeverity` setting's (a warning by default). */
export type ProblemSeverity = "error" | "neverReached";

/**
 * Where the editor (server/views/runView.ts) and every `turnlens test` reporter
 * (core/execution/failureLocation.ts) place a run's problem, each falling back to the
 * `testWorkflow` call in the test, else the test. A problem about one `events` element goes on the
 * element's key at fault (core/testing/eventKeyAtFault.ts), else the element, whatever its code.
 */
export type ProblemPlacement =
  /** The option's name, else the script's key. */
  | "optionName"
  /** The script's value under its option and key (the option's whole value for none), else the option's name. */
  | "scriptValue"
  /** Each entry never reached (by site, or by list position), else the script's key. */
  | "unreachedEntries"
  /** The key of the script never asked. */
  | "scriptKey"
  /** The list the turn ran past (the const it names), else the entry it ended with. */
  | "list"
  /** The `agents` object. */
  | "agentsObject"
  /** Every key of the globs in conflict. */
  | "globKeys"
  /** The entry's schema argument, else the entry. */
  | "schemaArgument"
  /** The entry's value argument, else the entry. */
  | "answerValue"
  /** The `throw` in the file, else the entry. */
  | "throw"
  /** The `throw` in the file, else the entry, else the script (by key and list position). */
  | "throwElseScript"
  /** The `messages` object. */
  | "messagesObject"
  /** The `participants` object. */
  | "participantsObject"
  /** The entries of the turns in flight, else the `stall` option. */
  | "inFlightEntries"
  /** The option the problem names. */
  | "option"
  /** The `testWorkflow` call itself. */
  | "call"
  /** The entry, decision key, script or option the problem names, the first found. */
  | "named";

/** The quick fix offered for a code (problemFixes.ts words it; server/views/fixes.ts writes it). */
export type ProblemFix =
  | "none"
  /** Rename the option to the name it probably meant. */
  | "rename"
  /** Remove the entries never reached. */
  | "removeUnreached"
  /** Remove the script never asked. */
  | "removeNeverAsked"
  /** Add an entry for the turn past the list. */
  | "addEntry"
  /** Add a script for the unscripted agent. */
  | "addScript"
  /** Add a `decisions` script answering each question the decision asked. */
  | "addDecisionScript"
  /** Answer with the turn's schema. */
  | "answerWith"
  /** Fill the value with one the schema accepts (the editor only: it reads the written value). */
  | "fill";

/**
 * How a run's copy of a problem the static pass shows is recognised (so it shows once): by the
 * option's name, by the script's option and key (the static pass may word a value by its source
 * text, the run by its value), or by its message, worded by the same core function.
 */
export type StaticMatch = "byOption" | "byScript" | "byMessage";

export interface ProblemCodeDescriptor {
  severity: ProblemSeverity;
  placement: ProblemPlacement;
  fix: ProblemFix;
  /** Set when the static pass finds it before a run (server/analysis/staticProblems.ts). */
  static?: StaticMatch;
  /** The "where" cell of its row in docs/language-server.md's Diagnostics table, word for word. */
  docs: string;
}

const NAMED = "the entry, script key or option it names, else the call, else the test";
/** A `messages` or `participants` script that threw: on its throw, else its entry. */
const THROWN_IN_A_SCRIPT: ProblemCodeDescriptor = {
  severity: "error",
  placement: "throwElseScript",
  fix: "none",
  docs: "the `throw` (the first frame in the file), else the script's entry or key",
};

export const PROBLEM_CODES = {
  "unknown-option": { severity: "error", placement: "optionName", fix: "rename", static: "byOption", docs: "the option's name (quick fix: rename to the suggestion)" },
  "option-invalid": {
    severity: "error",
    placement: "option",
    fix: "none",
    static: "byMessage",
    docs: "the option's name, else the call (before a run too: `values` without `fromStage`, `files` with `cwd`); of an `events` element (neither or both of `during`/`after`; a `during`/`after` literal not `\"agent#n\"`), that element's `during`/`after` (the second of both; with neither, a key it does not take, such as `durring`), else the element, `index` as the run's",
  },
  "script-invalid": {
    severity: "error",
    placement: "scriptValue",
    fix: "rename",
    static: "byScript",
    docs: "under `agents`, `decisions`, `compactions`, `messages`: the script (a list's first bad `index` named), an empty list's `[]`; under `participants`: the value that is not a function; an option's whole value that maps no keys",
  },
  "script-empty-list": {
    severity: "error",
    placement: "scriptValue",
    fix: "rename",
    static: "byScript",
    docs: "under `agents`, `decisions`, `compactions`, `messages`: the script (a list's first bad `index` named), an empty list's `[]`; under `participants`: the value that is not a function; an option's whole value that maps no keys",
  },
  "no-scripts": { severity: "error", placement: "call", fix: "none", docs: "the `testWorkflow` call" },
  "agent-unscripted": {
    severity: "error",
    placement: "agentsObject",
    fix: "addScript",
    docs: "the `agents` object, else the `testWorkflow` call (fixes: add `agent: answer(...)` or `agent: noAnswer.silent()`)",
  },
  "glob-conflict": { severity: "error", placement: "globKeys", fix: "none", docs: "both keys" },
  "list-exhausted": {
    severity: "error",
    placement: "list",
    fix: "addEntry",
    docs: "the list, naming the turn and its prompt (fixes: append `answer(SCHEMA, skeleton)`, or `noAnswer.silent()`)",
  },
  "entry-never-reached": {
    severity: "neverReached",
    placement: "unreachedEntries",
    fix: "removeUnreached",
    docs: "each entry no turn reached (severity setting, tagged unnecessary; fixes: remove it, remove every one in the file); under `compactions` and `messages` too, a `messages` function found by its list position",
  },
  "list-never-asked": {
    severity: "neverReached",
    placement: "scriptKey",
    fix: "removeNeverAsked",
    docs: "the key of a list no agent met (same severity; fix: remove the script), under any keyed option",
  },
  "schema-mismatch": {
    severity: "error",
    placement: "schemaArgument",
    fix: "answerWith",
    docs: "the entry's schema argument; the message names both schemas, the first path in the answer where they differ and what each wants there, in words, and its related information (the hover's detail) says each schema in words (fix: answer with the turn's schema)",
  },
  "answer-refused": {
    severity: "error",
    placement: "answerValue",
    fix: "fill",
    docs: 'the value argument, with the validator\'s path (fix: "Fill with a valid answer", [writing-answers.md](writing-answers.md))',
  },
  "script-threw": { severity: "error", placement: "throw", fix: "none", docs: "the `throw` (the first frame in the file), else the entry" },
  "script-returned-nothing": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "script-returned-entry": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "interrupted-not-caller": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "compaction-not-text": { severity: "error", placement: "named", fix: "none", docs: "the `compactions` entry" },
  "compaction-interrupted": { severity: "error", placement: "named", fix: "none", docs: "the `compactions` entry" },
  stall: { severity: "error", placement: "inFlightEntries", fix: "none", docs: "the entries of the turns in flight, else the `stall` option, else the call" },
  "max-turns": { severity: "error", placement: "option", fix: "none", docs: "the `maxTurns` option, else the call" },
  "args-required": { severity: "error", placement: "option", fix: "none", docs: "the `args` option, else the call" },
  "decision-unscripted": {
    severity: "error",
    placement: "named",
    fix: "addDecisionScript",
    docs: "the `decisions` option, else the call (fix: add a script answering each question the decision asked)",
  },
  "decision-script-threw": { severity: "error", placement: "throw", fix: "none", docs: "the `throw` (the first frame in the file), else the entry" },
  "decision-unasked-question": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "decision-wrong-kind": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "decision-refused": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "fake-client-script-invalid": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "fake-client-script-threw": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "fake-client-no-rest": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "workflow-threw": { severity: "error", placement: "call", fix: "none", docs: "the `testWorkflow` call" },
  "runtime-unknown": {
    severity: "error",
    placement: "option",
    fix: "none",
    docs: "the `runtimes` option, else the call; the message names the workflow's `wf.agents.open` line",
  },
  "message-unscripted": { severity: "error", placement: "messagesObject", fix: "none", docs: "the `messages` / `participants` object, else the call" },
  "message-script-threw": THROWN_IN_A_SCRIPT,
  "message-script-returned": { severity: "error", placement: "named", fix: "none", docs: "the `messages` function (by key and list position), else its key" },
  "participant-unscripted": { severity: "error", placement: "participantsObject", fix: "none", docs: "the `messages` / `participants` object, else the call" },
  "participant-script-threw": THROWN_IN_A_SCRIPT,
  "result-while-owing": { severity: "error", placement: "named", fix: "none", docs: NAMED },
  "event-refused": {
    severity: "error",
    placement: "named",
    fix: "none",
    docs: "the `events` element (its `index`); `event-refused` of the starting event goes on the `event` option",
  },
  "event-never-sent": {
    severity: "error",
    placement: "named",
    fix: "none",
    docs: "the `during` or `after` of its `events` element (its `index`): the turn that never came, else the element",
  },
  "event-id-reused": {
    severity: "error",
    placement: "named",
    fix: "none",
    static: "byMessage",
    docs: "the `events` element (its `index`): two literal ids equal, `event`'s and awf's defaults `awf.start`/`awf.test.{n}` included",
  },
} as const satisfies { readonly [Code in ProblemCode]: ProblemCodeDescriptor };

/** The codes the static pass finds too. */
export type StaticProblemCode = { [Code in ProblemCode]: (typeof PROBLEM_CODES)[Code] extends { static: StaticMatch } ? Code : never }[ProblemCode];

export function describeProblem(code: ProblemCode): ProblemCodeDescriptor {
  return PROBLEM_CODES[code];
}
