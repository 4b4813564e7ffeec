// What an assertion failure holds beyond its message, read as Vitest reads it (@vitest/utils's
// processError): chai's AssertionError and @vitest/expect's matcher errors carry `actual`,
// `expected` and `showDiff`, and the diff is printed from them; an `expect.soft` failure arrives
// already processed, its diff and values printed.
import { printDiffOrStringify } from "@vitest/utils/diff";

export interface AssertionFailure {
  expected: unknown;
  actual: unknown;
  /** `- Expected / + Received`, or `Expected: … / Received: …` for short values; plain text. */
  diff?: string;
  /** Whether expected and actual came printed (a processed error), rather than as values. */
  printed: boolean;
}

interface Diffable {
  actual?: unknown;
  expected?: unknown;
  showDiff?: boolean;
  diff?: unknown;
}

// No colors: the worker's text is plain, and each reporter colors what it prints.
const plain = (text: string) => text;
const DIFF_OPTIONS = {
  aColor: plain,
  bColor: plain,
  changeColor: plain,
  commonColor: plain,
  patchColor: plain,
  changeLineTrailingSpaceColor: plain,
  commonLineTrailingSpaceColor: plain,
};

/** The values an assertion compared and their diff, or undefined when `error` compared none. */
export function assertionFailure(error: object): AssertionFailure | undefined {
  const err = error as Diffable;
  if (typeof err.diff === "string") return { expected: err.expected, actual: err.actual, diff: err.diff, printed: true };
  const compared = err.showDiff === true || (err.showDiff === undefined && err.expected !== undefined && err.actual !== undefined);
  if (!compared) return undefined;
  let diff: string | undefined;
  try {
    diff = printDiffOrStringify(err.actual, err.expected, DIFF_OPTIONS) ?? undefined;
  } catch {
    diff = undefined; // a value that cannot be printed: the message still says what failed
  }
  const failure: AssertionFailure = { expected: err.expected, actual: err.actual, printed: false };
  if (diff) failure.diff = diff;
  return failure;
}
