// What the static pass sees in a test file, before anything runs: tests, testWorkflow calls,
// their options and scripts, and every answer(...)/noAnswer.*() with its ranges.
// Positions are LSP-style: 0-based line, 0-based UTF-16 character.
import type { StaticProblemCode as StaticProblemTraceCode } from "../../core/testing/problemCodes.ts";

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** An `answer(...)` or `noAnswer.*()` call, or something else where an entry was expected. */
export interface StaticEntry {
  /**
   * `answer`, `noAnswer.silent`, ... `function` for a function written in a `messages` or
   * `participants` script (the entry the test gave as it is), or `other` for any other expression.
   */
  kind: string;
  /** The whole expression. */
  range: Range;
  /**
   * Where V8 places the call in a stack trace: the `answer` identifier, or the `silent` of
   * `noAnswer.silent()`. A runtime trace's site (1-based line/column) is matched against this.
   */
  calleeRange?: Range;
  /** The schema argument of `answer(SCHEMA, value)`. */
  schemaRange?: Range;
  /** The schema argument's text, e.g. `SUMMARY`. */
  schemaText?: string;
  /** The value (or text, or function) argument. */
  valueRange?: Range;
  /** Index in its list, or null for a single entry. */
  index: number | null;
  /**
   * For an `other` entry that names a `const` of this file holding an answer/noAnswer call
   * (`[clean, answer(…)]` with `const clean = answer(…)`): that call, where runtime sites point.
   * Its `index` is this entry's.
   */
  definition?: StaticEntry;
}

/** What a script written as a name (`lead`, `clean`) holds: the `const` of this file it names. */
export interface StaticScriptDefinition {
  /** The name as the script wrote it. */
  name: string;
  /** The const's initializer: the list or the entry call. */
  range: Range;
  shape: "list" | "entry";
  entries: StaticEntry[];
  /** For a list: where a new entry would be inserted in the const. */
  listEnd?: Position;
}

/** One `key: script` property of a keyed option's object: `agents`, `decisions`, `compactions`, `messages`, `participants`. */
export interface StaticScript {
  key: string;
  /** The property name, quotes included. */
  keyRange: Range;
  /** The whole `key: value` property, for removing it. */
  propertyRange: Range;
  valueRange: Range;
  /** `list` for an array literal, `entry` for one call, `other` for anything else (a variable, a spread...). */
  shape: "list" | "entry" | "other";
  entries: StaticEntry[];
  /** For a list: where a new entry would be inserted (just after the last element). */
  listEnd?: Position;
  /**
   * For an `other` script that names a `const` of this file holding a list or an entry: what it
   * holds. `entries` stays empty for such a script; its entries are here, at the const.
   */
  definition?: StaticScriptDefinition;
}

/** The scripts of one keyed option (`agents`, `decisions`, `compactions`, `messages`, `participants`). */
export interface StaticScripts {
  objectRange: Range;
  scripts: StaticScript[];
  hasSpread: boolean;
}

/** One element of the `events` option's array, which a run's `RunTrace.events[i]` (index i + 1) is about. */
export interface StaticEventElement {
  /** 0-based, as a problem's `index`. */
  index: number;
  range: Range;
  /** `during` or `after`, when the element is an object literal naming one. */
  when?: "during" | "after";
  /** The turn it names (`investigator#1`), when written as a string literal. */
  turn?: string;
  /** The event's name, when written as a string literal. */
  name?: string;
  /** The keys the object literal writes, in order, each with its name's range: a problem goes on the one at fault. */
  keys?: Array<{ key: string; range: Range }>;
}

export interface StaticEvents {
  arrayRange: Range;
  elements: StaticEventElement[];
  /** A spread element (`...more`): the indexes after it are not known. */
  hasSpread: boolean;
}

export interface StaticOption {
  name: string;
  nameRange: Range;
  /** The whole `name: value` property. */
  propertyRange: Range;
  valueRange: Range;
}

export interface StaticTestWorkflowCall {
  /** The whole `testWorkflow(...)` call. */
  range: Range;
  /** The `testWorkflow` identifier. */
  calleeRange: Range;
  /** The first argument's text, e.g. `summarize`. */
  workflowText?: string;
  /** The first argument's range. */
  workflowRange?: Range;
  /** The module the workflow identifier was imported from, e.g. `./summarize`. */
  workflowModule?: string;
  /** The options object literal, when the call gives one. */
  optionsRange?: Range;
  options: StaticOption[];
  /** Spread elements in the options (`...shared`), or computed names: names the static pass cannot see. */
  hasSpread: boolean;
  agents?: StaticScripts;
  decisions?: StaticScripts;
  /** `compactions`: keyed as `agents`, an entry (or list) per compaction. */
  compactions?: StaticScripts;
  /** `messages`: keyed as `agents`, a function (or noAnswer, or list) per message that wakes the agent. */
  messages?: StaticScripts;
  /** `participants`: a function per participant key. */
  participants?: StaticScripts;
  /** `events`: the elements of the array literal, in order. */
  events?: StaticEvents;
  /** Index into `StaticTestFile.tests` of the innermost test (or describe) containing this call. */
  testIndex?: number;
}

export interface StaticTest {
  /** `test`, `it` or `describe` (with `.skip`, `.only`, `.each`... folded in `modifier`). */
  kind: "test" | "describe";
  modifier?: string;
  /** The name as written: a string literal's text, a template's text between the backticks, or the expression's source. */
  name: string;
  /**
   * A RegExp source (anchored) matching the names the runner reports for this test, present when
   * they may differ from `name`: a `.each` name with `%s` or `$key` placeholders (one test per
   * row), a template with `${…}`, a name that is not a literal. `testAt` uses it.
   */
  namePattern?: string;
  /** Describe names then this name; what the runner reports as `TestReport.path`. */
  path: string[];
  /** The whole call. */
  range: Range;
  /** The callee (`test`, `it.only`...), where a code lens goes. */
  calleeRange: Range;
  /** Index of the enclosing describe, if any. */
  parent?: number;
}

/** `too-deep` is a notice, not a mistake: code nested past the walk's depth limit (tooDeep.ts). */
/** The codes core/testing/problemCodes.ts says the static pass finds, and its own notice of code too deep to read. */
export type StaticProblemCode = StaticProblemTraceCode | "too-deep";

/** A mistake visible without running anything. */
export interface StaticProblem {
  code: StaticProblemCode;
  message: string;
  range: Range;
  /**
   * For unknown-option: the option as written; for the others: the option (`agents`, `events`,
   * `values`...), as core's ProblemTrace has it.
   */
  option?: string;
  /** For unknown-option: the name it probably meant. */
  suggestion?: string;
  /** For script problems: the key under `agents`, `compactions`..., when the problem is one key's. */
  key?: string;
  /**
   * For script-invalid in a list: the index of the first element that is not an entry; for a
   * problem of an `events` element: its index (0-based), the element being the range.
   */
  index?: number;
}

export interface StaticTestFile {
  tests: StaticTest[];
  calls: StaticTestWorkflowCall[];
  problems: StaticProblem[];
  /** Identifiers imported from each module specifier, e.g. { "./summarize": ["summarize", "SUMMARY"] }. */
  imports: Record<string, string[]>;
  /**
   * answer(...)/noAnswer.*() calls no script reaches, directly or through a const: in a helper
   * (`const asking = (…) => answer(VERDICT, …)`), or returned by a function entry. A runtime site
   * may still point at one; `looseEntryAtSite` finds it.
   */
  looseEntries?: StaticEntry[];
}
