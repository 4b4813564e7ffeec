// The Test Explorer's views of a document: its tree of tests (what the text declares, plus tests only
// a run reported) and a failed test's messages, placed as its diagnostics are.
import { DiagnosticSeverity, type Range } from "vscode-languageserver";
import { PROBLEM_CODES } from "../../core/testing/problemCodes.ts";
import type { TestReport } from "../../core/execution/report.ts";
import type { StaticTestFile } from "../analysis/model.ts";
import { TestId, type TestItem, type TestMessage } from "../protocol.ts";
import type { Settings } from "../settings.ts";
import { toRunView, type TestView } from "./runView.ts";

/** The tree of a document's tests: what the text declares, plus tests only a run reported. */
export function testTree(uri: string, model: StaticTestFile, ran: TestView[] = []): TestItem[] {
  const items = model.tests.map(
    (test): TestItem => ({ id: TestId.of(uri, test.path), label: test.name, kind: test.kind, range: test.range, source: "static", children: [] }),
  );
  const roots: TestItem[] = [];
  model.tests.forEach((test, index) => (test.parent !== undefined ? items[test.parent]!.children : roots).push(items[index]!));
  for (const view of ran) {
    if (view.test) continue;
    const item: TestItem = { id: TestId.of(uri, view.report.path), label: view.report.name, kind: "test", range: view.range, source: "run", children: [] };
    const parentIndex = model.tests.findIndex((test) => test.kind === "describe" && JSON.stringify(test.path) === JSON.stringify(view.report.path.slice(0, -1)));
    (parentIndex >= 0 ? items[parentIndex]!.children : roots).push(item);
  }
  return roots;
}

/**
 * A failed test's messages for the Test Explorer, one per error that failed it: each of its run
 * problems at its range in the document `uri` (whose text the run ran), marked as one a published
 * diagnostic shows there, else the failure placed as its diagnostic is. A problem whose diagnostic
 * is not an error (an entry never reached, at the default severity) makes no message: a test
 * message has no severity and is drawn as a failure. A test failed by such problems alone gets its
 * error's message, with no location.
 */
export function failureMessages(uri: string, file: string, ran: { text: string; model: StaticTestFile }, report: TestReport, settings: Settings): TestMessage[] {
  const view = toRunView({
    file,
    text: ran.text,
    model: ran.model,
    report: { file, tests: [report], durationMs: 0 },
    schemas: [],
    settings,
  });
  // A problem the static pass shows (not published twice) is still where the failure message goes.
  const shown = [
    ...view.diagnostics.map((diagnostic) => ({
      range: diagnostic.range,
      message: typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value,
      severity: diagnostic.severity,
      problem: isProblemCode(diagnostic.code),
    })),
    ...view.shownStatically.map((problem) => ({ ...problem, problem: true })),
  ];
  const messages = shown
    .filter((diagnostic) => diagnostic.severity === DiagnosticSeverity.Error)
    .map(
      (diagnostic): TestMessage => ({
        message: diagnostic.message,
        location: { uri, range: diagnostic.range as Range },
        ...(diagnostic.problem ? { diagnostic: true } : {}),
      }),
    );
  // Failed by the test's own mistakes that only warnings mark (an entry never reached): the warning's
  // squiggle is their one mark, so the message is flagged as marked and VS Code draws it nowhere inline.
  const markedByWarnings = (report.error?.problems?.length ?? 0) > 0 && shown.some((diagnostic) => diagnostic.problem);
  if (messages.length === 0) messages.push({ message: report.error?.message ?? "the test failed", ...(markedByWarnings ? { diagnostic: true as const } : {}) });
  if (report.error?.expected !== undefined) messages[0]!.expected = report.error.expected;
  if (report.error?.actual !== undefined) messages[0]!.actual = report.error.actual;
  return messages;
}

const isProblemCode = (code: unknown): boolean => typeof code === "string" && Object.hasOwn(PROBLEM_CODES, code);
