// Reading V8 stack traces (already mapped to the `.ts` sources) and turning thrown values into
// ErrorReports.
import { sep } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { problemsOf } from "../testing/trace.ts";
import { turnlensRoot } from "./paths.ts";
import { assertionFailure } from "./assertionFailure.ts";
import type { ErrorReport, Site } from "./report.ts";

const FRAME = /^\s*at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

/** The frames of a stack, as sites, skipping frames without a real file. */
export function framesOf(stack: string | undefined): Site[] {
  if (!stack) return [];
  const sites: Site[] = [];
  for (const line of stack.split("\n")) {
    if (!/^\s*at /.test(line)) continue;
    const m = FRAME.exec(line);
    if (!m) continue;
    let file = m[1]!;
    if (file.startsWith("async ")) file = file.slice(6);
    if (file.startsWith("file://")) {
      try {
        file = fileURLToPath(file);
      } catch {
        continue;
      }
    } else if (!file.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(file)) {
      continue; // node:internal, native, eval, virtual modules
    }
    sites.push({ file, line: Number(m[2]), column: Number(m[3]) });
  }
  return sites;
}

/** A file the user wrote: not Turnlens's own dist/ or core/, not node_modules, not a bundle. */
export function isUserFile(file: string): boolean {
  const root = turnlensRoot() + sep;
  if (file.startsWith(`${root}dist${sep}`) || file.startsWith(`${root}core${sep}`)) return false;
  if (file.includes(`${sep}node_modules${sep}`)) return false;
  if (file.endsWith(".mjs") && file.includes(`${sep}turnlens-`) && file.includes(".bundle.")) return false;
  return true;
}

/** First frame in `testFile`, else the first frame in a user file. */
export function locationOf(stack: string | undefined, testFile?: string): Site | undefined {
  const frames = framesOf(stack);
  if (testFile) {
    const inTest = frames.find((f) => f.file === testFile);
    if (inTest) return inTest;
  }
  return frames.find((f) => isUserFile(f.file));
}

function show(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  return inspect(value, { depth: 6, colors: false, breakLength: 80, sorted: false });
}

/** An ErrorReport for anything a test threw. */
export function errorReport(error: unknown, testFile?: string): ErrorReport {
  try {
    return readErrorReport(readableThrown(error), testFile);
  } catch (failure) {
    // A getter that throws, a Proxy that refuses: the report says so rather than lose the test.
    return { message: `a value was thrown that cannot be read: ${reasonOf(failure)}` };
  }
}

/** Why reading a value failed, in words, without reading anything else that may throw. */
function reasonOf(failure: unknown): string {
  try {
    return failure instanceof Error ? String(failure.message) : typeof failure;
  } catch {
    return "reading it threw";
  }
}

/**
 * The thrown value, or an Error that says it cannot be read: a revoked Proxy throws on every
 * operation (instanceof included), so one thrown by a test would otherwise break the runner's
 * own bookkeeping and lose the rest of the file.
 */
export function readableThrown(value: unknown): unknown {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return value;
  try {
    Reflect.getPrototypeOf(value);
    void (value as { message?: unknown }).message;
    void (value as { stack?: unknown }).stack;
    return value;
  } catch (failure) {
    return new Error(`a value was thrown that cannot be read: ${reasonOf(failure)}`);
  }
}

function readErrorReport(error: unknown, testFile?: string): ErrorReport {
  if (!(error instanceof Error) && !(typeof error === "object" && error !== null && "message" in error)) {
    return { message: `a non-error value was thrown: ${show(error)}` };
  }
  const err = error as Error;
  // Kept as it is, escapes and all: the worker prints no colors of its own (FORCE_COLOR=0,
  // workerProcess.ts), so an ESC here is the value's, and the terminal reporters show it escaped
  // (reporters/terminalText.ts); stripped, two different values would print the same.
  let message = String(err.message ?? "");
  let stack: string | undefined;
  try {
    stack = typeof err.stack === "string" ? err.stack : undefined;
  } catch {
    stack = undefined;
  }
  const report: ErrorReport = { message };
  const type = errorType(err);
  if (type) report.type = type;
  if (stack) report.stack = stack;
  const location = locationOf(stack, testFile);
  if (location) report.location = location;
  // An assertion's values and diff (chai's AssertionError): the diff goes under the message, as
  // Vitest prints it, so every reporter and the editor show it as part of the message.
  const failure = assertionFailure(err);
  if (failure) {
    report.expected = failure.printed ? String(failure.expected) : show(failure.expected);
    report.actual = failure.printed ? String(failure.actual) : show(failure.actual);
    if (failure.diff) {
      report.diff = failure.diff;
      message = report.message = `${message}\n\n${failure.diff}`;
    }
  }
  if (!message && err.name) message = report.message = err.name;
  const problems = problemsOf(error);
  if (problems && problems.length > 0) report.problems = problems;
  // Errors with a cause: keep the cause's message visible.
  // @vitest/runner keeps a test's error with its cause serialized (a plain object with a message).
  const cause = (err as { cause?: unknown }).cause;
  const causeMessage = cause instanceof Error ? cause.message : typeof cause === "object" && cause !== null ? (cause as { message?: unknown }).message : undefined;
  if (typeof causeMessage === "string" && causeMessage && !message.includes(causeMessage)) {
    report.message = `${message}\n  caused by: ${causeMessage}`;
  }
  // Make sure the report survives JSON and IPC.
  return JSON.parse(JSON.stringify(report)) as ErrorReport;
}

/**
 * The error's class: an `expect` failure as `AssertionError` (what JUnit consumers expect; a matcher
 * added by `expect.extend` throws @vitest/expect's JestExtendError), else the error's name or constructor.
 */
function errorType(err: Error): string | undefined {
  try {
    if (err.constructor?.name === "JestExtendError") return "AssertionError";
    const name = typeof err.name === "string" && err.name !== "" ? err.name : undefined;
    const constructorName = typeof err.constructor?.name === "string" && err.constructor.name !== "" ? err.constructor.name : undefined;
    return name === "Error" && constructorName && constructorName !== "Object" ? constructorName : (name ?? constructorName);
  } catch {
    return undefined; // a getter that throws
  }
}

/** A stack line stripped to the frames worth showing a person: user files only. */
export function userStack(stack: string | undefined): string[] {
  if (!stack) return [];
  return stack
    .split("\n")
    .filter((line) => /^\s*at /.test(line))
    .filter((line) => {
      const [site] = framesOf(line);
      return site !== undefined && isUserFile(site.file);
    })
    .map((line) => line.trim());
}
