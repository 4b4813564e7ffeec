// Where each failure of a test is and its code, the one answer every `turnlens test` reporter prints
// and the JSON document carries: a testWorkflow problem at the option, entry or `events` key at fault
// (its code's placement in core/testing/problemCodes.ts, as the language server places it), any
// other failure at the line it failed on. The text is read with literalText.ts, no compiler.
import { eventKeyAtFault } from "../testing/eventKeyAtFault.ts";
import { PROBLEM_CODES } from "../testing/problemCodes.ts";
import type { ProblemCode, ProblemTrace, ScriptOption } from "../testing/trace.ts";
import { expressionStartAt, failureStartAt, type Literal, offsetOf, positionOf, propertyOf, readLiteral, resolved } from "./literalText.ts";
import type { ErrorReport, FileReport, Site, TestReport } from "./report.ts";

/**
 * The codes of failures that are no testWorkflow problem, each as the editor's diagnostic and
 * every reporter name it (docs/language-server.md's Diagnostics table, docs/runner.md).
 */
export const FAILURE_CODES = {
  /** An `expect` that failed: at its matcher. */
  "expect-failed": "an `expect` that failed",
  /** The test ran past its timeout. */
  timeout: "a test past its timeout",
  /** Anything else the test threw, or its worker's end. */
  "test-failed": "a throw in the test, a killed worker, `process.exit`",
  /** The file could not load. */
  "file-failed": "a file that could not load",
} as const;

export type FailureCode = ProblemCode | keyof typeof FAILURE_CODES;

/** One failure as every reporter names it. */
export interface Failure {
  code: FailureCode;
  /** Where it is; absent when nothing tells (a file that failed before any line ran). */
  site?: Site;
  message: string;
  /** The testWorkflow problem it is, when it is one. */
  problem?: ProblemTrace;
}

/** A file's text by path, undefined when it cannot be read. */
export type TextOf = (file: string) => string | undefined;

/** A failure that is no testWorkflow problem: an `expect`, a timeout, anything else thrown. */
export function plainFailureCode(error: ErrorReport): "expect-failed" | "timeout" | "test-failed" {
  if (error.type === "AssertionError" || error.expected !== undefined || error.actual !== undefined || /^expect\(/.test(error.message)) return "expect-failed";
  if (/ timed out after \d/.test(error.message)) return "timeout";
  return "test-failed";
}

/** Where a failure that is no testWorkflow problem starts in its file's text (literalText.ts's `failureStartAt`). */
export function plainFailureSite(site: Site, text: string): Site {
  const offset = offsetOf(text, site.line, site.column);
  return offset === undefined ? site : { file: site.file, ...positionOf(text, failureStartAt(text, offset)) };
}

/** A file that could not run. */
export function fileFailure(report: FileReport): Failure | undefined {
  if (!report.error) return undefined;
  return { code: "file-failed", message: report.error.message, ...(report.error.location ? { site: report.error.location } : {}) };
}

/** A failed test's failures: each of its testWorkflow problems, else the error it failed with. */
export function testFailures(file: string, test: TestReport, textOf: TextOf): Failure[] {
  if (test.status !== "failed") return [];
  const error = test.error ?? { message: "failed" };
  const fallback = error.location ?? test.location;
  const problems = error.problems ?? [];
  const text = textOf(file);
  if (problems.length === 0) {
    const site = fallback && text !== undefined && fallback.file === file ? plainFailureSite(fallback, text) : fallback;
    return [{ code: plainFailureCode(error), message: error.message, ...(site ? { site } : {}) }];
  }
  const call = error.location?.file === file ? error.location : undefined;
  const written = text === undefined ? undefined : new WrittenCall(file, text, call);
  return problems.map((problem) => {
    const site = written?.locate(problem) ?? fallbackSite(problem, fallback);
    return { code: problem.code, message: problem.message, problem, ...(site ? { site } : {}) };
  });
}

/** With no text to read: the line a script threw on, the entry, else the failure's own place. */
function fallbackSite(problem: ProblemTrace, fallback: Site | undefined): Site | undefined {
  return problem.thrownAt ?? problem.sites?.[0] ?? problem.site ?? fallback;
}

/** Reads each file once, for a reporter's run. */
export function textReader(read: (file: string) => string): TextOf {
  const texts = new Map<string, string | undefined>();
  return (file) => {
    if (!texts.has(file)) {
      try {
        texts.set(file, read(file));
      } catch {
        texts.set(file, undefined);
      }
    }
    return texts.get(file);
  };
}

const SCRIPT_OPTIONS: readonly string[] = ["agents", "decisions", "compactions", "messages", "participants"] satisfies ScriptOption[];

/** One testWorkflow call as its file writes it: its options object, read from the text. */
class WrittenCall {
  private readonly options: Literal | undefined;

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly call: Site | undefined,
  ) {
    const offset = call ? offsetOf(text, call.line, call.column) : undefined;
    const written = offset === undefined ? undefined : readLiteral(text, offset);
    this.options = written?.kind === "call" ? this.value(written.args[1]) : undefined;
    if (this.options?.kind !== "object") this.options = undefined;
  }

  private value(literal: Literal | undefined): Literal | undefined {
    return resolved(this.text, literal);
  }

  private site(offset: number | undefined): Site | undefined {
    return offset === undefined ? undefined : { file: this.file, ...positionOf(this.text, offset) };
  }

  private offset(site: Site | undefined): number | undefined {
    return site && site.file === this.file ? offsetOf(this.text, site.line, site.column) : undefined;
  }

  /** The option's name. */
  private optionName(option: string | undefined): number | undefined {
    return propertyOf(this.options, option)?.keyStart;
  }

  /** The scripts of a keyed option (none names `agents`), as written. */
  private scripts(option: string | undefined): Literal | undefined {
    const name = option ?? "agents";
    return SCRIPT_OPTIONS.includes(name) ? this.value(propertyOf(this.options, name)?.value) : undefined;
  }

  private scriptKey(option: string | undefined, key: string | undefined): number | undefined {
    return propertyOf(this.scripts(option), key)?.keyStart;
  }

  /** The start of the entry at a runtime site (`noAnswer.silent()` is placed at `silent`). */
  private entryStart(site: Site | undefined): number | undefined {
    const offset = this.offset(site);
    return offset === undefined ? undefined : expressionStartAt(this.text, offset);
  }

  /** The entry's call, read at its site: `answer(SCHEMA, value)`. */
  private entryCall(site: Site | undefined): Literal | undefined {
    const start = this.entryStart(site);
    return start === undefined ? undefined : readLiteral(this.text, start);
  }

  /** The entry a script key and list position name (a `messages` function has no site of its own). */
  private keyedEntry(option: string | undefined, key: string | undefined, index: number | null | undefined): number | undefined {
    const written = this.value(propertyOf(this.scripts(option), key)?.value);
    if (!written) return undefined;
    if (written.kind === "array") return index === null || index === undefined ? undefined : written.elements[index]?.start;
    return written.start;
  }

  /** The list a script is: its `[`, or what its const holds. */
  private list(option: string | undefined, key: string | undefined): number | undefined {
    const written = propertyOf(this.scripts(option), key)?.value;
    if (!written) return undefined;
    return written.kind === "array" ? written.start : this.value(written)?.start;
  }

  /** The throw's line: V8 places it at `new Error(...)`, the `throw` keyword is before. */
  private throwStart(site: Site | undefined): number | undefined {
    const offset = this.offset(site);
    if (offset === undefined) return undefined;
    const lineStart = this.text.lastIndexOf("\n", offset - 1) + 1;
    const keyword = /\bthrow\s+$/.exec(this.text.slice(lineStart, offset));
    return keyword ? lineStart + keyword.index : offset;
  }

  /** An `events` element's problem: the key at fault in it, else the element. */
  private eventElement(problem: ProblemTrace): number | undefined {
    if (problem.option !== "events" || typeof problem.index !== "number") return undefined;
    const events = this.value(propertyOf(this.options, "events")?.value);
    const element = events?.kind === "array" ? events.elements[problem.index] : undefined;
    if (!element) return undefined;
    // The element as written (a const is not followed, as the editor's static pass does not).
    const object = element;
    const key =
      object?.kind === "object"
        ? eventKeyAtFault(
            problem,
            object.properties.map((property) => property.key),
          )
        : undefined;
    return (key !== undefined ? propertyOf(object, key)?.keyStart : undefined) ?? element.start;
  }

  /** Where the problem goes, as its code's placement says (server/views/runView.ts's `placesOf` is the editor's). */
  locate(problem: ProblemTrace): Site | undefined {
    const fallback = this.call;
    const first = (...offsets: Array<number | undefined>) => this.site(offsets.find((offset) => offset !== undefined)) ?? fallback;
    const event = this.eventElement(problem);
    if (event !== undefined) return this.site(event);
    const placement = PROBLEM_CODES[problem.code].placement;
    const entry = this.entryStart(problem.site);
    switch (placement) {
      case "optionName":
        return first(this.optionName(problem.option), this.scriptKey(problem.option, problem.key));
      case "scriptValue": {
        const value = problem.key !== undefined ? propertyOf(this.scripts(problem.option), problem.key)?.value : propertyOf(this.options, problem.option)?.value;
        return first(value?.start, this.optionName(problem.option));
      }
      case "unreachedEntries": {
        const sites = problem.sites?.length ? problem.sites : problem.site ? [problem.site] : [];
        const sited = sites.map((site) => this.entryStart(site)).find((offset) => offset !== undefined);
        const unsited =
          typeof problem.index === "number" && problem.option && problem.option !== "agents" ? this.keyedEntry(problem.option, problem.key, problem.index) : undefined;
        return first(sited, unsited, this.scriptKey(problem.option, problem.key));
      }
      case "scriptKey":
        return first(this.scriptKey(problem.option, problem.key ?? problem.pattern));
      case "list":
        return first(this.list(problem.option, problem.key), this.entryStart(problem.sites?.[0]));
      case "agentsObject":
        return first(this.value(propertyOf(this.options, "agents")?.value)?.start);
      case "globKeys":
        return first(...(problem.patterns ?? []).map((pattern) => this.scriptKey(problem.option, pattern)));
      case "schemaArgument": {
        const call = this.entryCall(problem.site);
        return first(call?.kind === "call" ? call.args[0]?.start : undefined, entry);
      }
      case "answerValue": {
        const call = this.entryCall(problem.site);
        const args = call?.kind === "call" ? call.args : [];
        return first(args.length >= 2 ? args[1]!.start : args[0]?.start, entry);
      }
      case "throw":
        return first(this.throwStart(problem.thrownAt), entry);
      case "throwElseScript":
        return first(
          this.throwStart(problem.thrownAt),
          entry,
          problem.option && problem.option !== "agents" ? this.keyedEntry(problem.option, problem.key, problem.index) : undefined,
          this.scriptKey(problem.option, problem.key),
        );
      case "messagesObject":
        return first(this.value(propertyOf(this.options, "messages")?.value)?.start);
      case "participantsObject":
        return first(this.value(propertyOf(this.options, "participants")?.value)?.start);
      case "inFlightEntries":
        return first(...(problem.sites ?? []).map((site) => this.entryStart(site)), this.optionName("stall"));
      case "option":
        return first(this.optionName(problem.option));
      case "call":
        return fallback;
      case "named":
        return first(
          entry,
          problem.decision !== undefined ? this.scriptKey("decisions", problem.decision) : undefined,
          problem.option && problem.option !== "agents" && problem.key !== undefined ? this.keyedEntry(problem.option, problem.key, problem.index) : undefined,
          this.scriptKey(problem.option, problem.key),
          this.optionName(problem.option),
        );
      default:
        return placement satisfies never;
    }
  }
}
