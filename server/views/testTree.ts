// The Test Explorer's views of a document: its tree of tests (what the text declares, plus tests only
// a run reported) and a failed test's messages, placed as its diagnostics are.
import type { Range } from "vscode-languageserver";
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

/** A failed test's messages for the Test Explorer: each problem at its range in the document `uri` (whose text the run ran), else the error. */
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
  const messages = [...view.diagnostics, ...view.shownStatically].map(
    (diagnostic): TestMessage => ({
      message: typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value,
      location: { uri, range: diagnostic.range as Range },
    }),
  );
  if (messages.length === 0) messages.push({ message: report.error?.message ?? "the test failed" });
  if (report.error?.expected !== undefined) messages[0]!.expected = report.error.expected;
  if (report.error?.actual !== undefined) messages[0]!.actual = report.error.actual;
  return messages;
}
