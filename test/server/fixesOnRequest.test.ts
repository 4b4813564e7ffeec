// A run's diagnostics keep what their quick fixes need, not the edits: the edits are made only
// when a code action asks (server/features/codeActions.ts), from that need and the text.
import { describe, expect, test } from "bun:test";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { FileReport } from "../../core/execution/report.ts";
import type { RunTrace } from "../../core/testing/trace.ts";
import { analyzeTestFile } from "../../server/analysis/analyzeTestFile.ts";
import { defaultSettings } from "../../server/settings.ts";
import { fixesOf } from "../../server/views/fixes.ts";
import { toRunView } from "../../server/views/runView.ts";

const FILE = "/w/past.test.ts";
const CALL = '  await testWorkflow(note, { agents: { writer: [answer("a")] } });';
const TEXT = `import { test } from "bun:test";\nimport { answer, testWorkflow } from "agentswf/testing";\ntest("one", async () => {\n${CALL}\n});\n`;
const MODEL = analyzeTestFile(FILE, TEXT);
const SITE = { file: FILE, line: 4, column: CALL.indexOf("answer(") + 1 };

function pastTheList(): FileReport {
  const problem = {
    code: "list-exhausted" as const,
    message: 'agent "writer" turn 2: its list has 1 entry',
    agent: "writer",
    turn: 2,
    option: "agents",
    key: "writer",
    sites: [SITE],
  };
  const run: RunTrace = { workflow: "note", entries: [], turns: [], compactions: [], decisions: [], problems: [problem], durationMs: 1 };
  return {
    file: FILE,
    durationMs: 1,
    tests: [{ id: "one", name: "one", path: ["one"], status: "failed", durationMs: 1, runs: [run], error: { message: problem.message } }],
  };
}

describe("quick fixes made on request", () => {
  test("a turn past a list keeps what adding its entry needs, and the edits are made from it when asked", () => {
    const view = toRunView({ file: FILE, text: TEXT, model: MODEL, report: pastTheList(), schemas: [], settings: defaultSettings });
    const [diagnostic] = view.diagnostics;
    expect(diagnostic?.data.fixes.map((need) => ({ kind: need.kind, edits: "edits" in need }))).toEqual([{ kind: "addEntry", edits: false }]);
    const document = TextDocument.create(`file://${FILE}`, "typescript", 1, TEXT);
    const fixes = diagnostic!.data.fixes.flatMap((need) => fixesOf(need, { document, text: TEXT, model: MODEL }));
    expect(fixes.map((fix) => [fix.title, fix.preferred, fix.edits.map((edit) => edit.newText)])).toEqual([
      ['Add answer("") for writer turn 2', true, [', answer("")']],
      ["Add noAnswer.silent() for writer turn 2", false, [", noAnswer", ", noAnswer.silent()"]],
    ]);
  });
});
