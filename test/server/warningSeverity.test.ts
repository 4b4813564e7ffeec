// A problem of warning severity never makes a red failure message in the Test Explorer (VS Code's
// test messages have no severity: every one is shown as a failure). Over every problem code the
// runner has: which codes are warnings, that no code of a passing test makes a diagnostic or a
// message, that a failing test's message is made only for an error, and, over the real protocol,
// that each warning code in a passing test gives `passed` and no diagnostic while the same problem
// failing its test is a warning squiggle and no message at it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DiagnosticSeverity, type PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import type { FileReport } from "../../core/execution/report.ts";
import { PROBLEM_CODES } from "../../core/testing/problemCodes.ts";
import type { ProblemCode, RunTrace } from "../../core/testing/trace.ts";
import { analyzeTestFile } from "../../server/analysis/analyzeTestFile.ts";
import type { TestRunProgressParams } from "../../server/protocol.ts";
import { toRunView } from "../../server/views/runView.ts";
import { failureMessages } from "../../server/views/testTree.ts";
import { defaultSettings, type Settings } from "../../server/settings.ts";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";

/** Every problem code: one entry each in core/testing/problemCodes.ts. */
const CODES = Object.keys(PROBLEM_CODES) as ProblemCode[];

/** The codes whose diagnostic is not an error at the default settings; the protocol tests below cover each. */
const WARNING_CODES: ProblemCode[] = ["entry-never-reached", "list-never-asked"];

const FILE = "/w/severity.test.ts";
const TEXT = 'import { test } from "bun:test";\ntest("one", async () => {});\n';
const MODEL = analyzeTestFile(FILE, TEXT);

/** A one-test report whose one run had a problem of `code`, the test `passed` or `failed`. */
function reportWith(code: ProblemCode, status: "passed" | "failed"): FileReport {
  const run: RunTrace = { workflow: "w", entries: [], turns: [], compactions: [], decisions: [], problems: [{ code, message: `a ${code} problem` }], durationMs: 1 };
  return {
    file: FILE,
    durationMs: 1,
    tests: [
      {
        id: "one",
        name: "one",
        path: ["one"],
        status,
        durationMs: 1,
        runs: [run],
        ...(status === "failed" ? { error: { message: `a ${code} problem`, problems: run.problems } } : {}),
      },
    ],
  };
}

function diagnosticsOf(code: ProblemCode, status: "passed" | "failed", settings: Settings = defaultSettings) {
  return toRunView({ file: FILE, text: TEXT, model: MODEL, report: reportWith(code, status), schemas: [], settings }).diagnostics.filter(
    (diagnostic) => diagnostic.code === code,
  );
}

describe("the severity of every problem code", () => {
  test("at the default settings, only entry-never-reached and list-never-asked are not errors: they are warnings", () => {
    const bySeverity = CODES.map((code) => [code, diagnosticsOf(code, "failed").map((diagnostic) => diagnostic.severity)] as const);
    expect(bySeverity.filter(([, severities]) => !severities.every((severity) => severity === DiagnosticSeverity.Error)).map(([code]) => code)).toEqual(WARNING_CODES);
    for (const code of WARNING_CODES) expect(diagnosticsOf(code, "failed").map((diagnostic) => diagnostic.severity)).toEqual([DiagnosticSeverity.Warning]);
  });

  test("turnlens.entryNeverReachedSeverity sets the warning codes' severity, and no other code's", () => {
    const levels = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, information: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint };
    for (const [setting, severity] of Object.entries(levels)) {
      const settings = { ...defaultSettings, entryNeverReachedSeverity: setting as Settings["entryNeverReachedSeverity"] };
      for (const code of CODES) {
        expect([code, diagnosticsOf(code, "failed", settings).map((diagnostic) => diagnostic.severity)]).toEqual([
          code,
          [WARNING_CODES.includes(code) ? severity : DiagnosticSeverity.Error],
        ]);
      }
    }
  });

  test("a failing test's message is made for an error only: a warning's is none, and a test failed by warnings alone gets its error's message with no location, flagged as marked (its warning squiggle is its one mark)", () => {
    const messagesOf = (code: ProblemCode, settings: Settings = defaultSettings) =>
      failureMessages(`file://${FILE}`, FILE, { text: TEXT, model: MODEL }, reportWith(code, "failed").tests[0]!, settings);
    for (const code of CODES) {
      const error = !WARNING_CODES.includes(code);
      expect([code, messagesOf(code)]).toEqual([
        code,
        error
          ? [expect.objectContaining({ message: expect.any(String), location: expect.anything(), diagnostic: true })]
          : [{ message: `a ${code} problem`, diagnostic: true }],
      ]);
    }
    // Made errors by the setting, they make a message at their diagnostic like any error.
    const errors = { ...defaultSettings, entryNeverReachedSeverity: "error" as const };
    for (const code of WARNING_CODES) expect(messagesOf(code, errors)).toEqual([expect.objectContaining({ location: expect.anything(), diagnostic: true })]);
  });

  for (const code of CODES) {
    test(`a ${code} problem of a run its passing test caught makes no diagnostic, so no failure message`, () => {
      expect(diagnosticsOf(code, "passed")).toEqual([]);
    });
  }
});

// Over the protocol: a real test file per warning code, its test catching the problem (passing) and
// not catching it (failing).
const HEAD = `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";
`;
const SCRIPTS: Record<string, string> = {
  "entry-never-reached": `{ agents: { writer: [answer(NOTE, { title: "one" }), answer(NOTE, { title: "two" })] } }`,
  "list-never-asked": `{ agents: { writer: answer(NOTE, { title: "one" }), reviewer: [answer("fine")] } }`,
};

let server: TestServer;
beforeAll(async () => {
  server = new TestServer({ initializationOptions: { settings: { runMode: "manual" } } });
  await server.initialize();
});
afterAll(() => server.dispose());

describe("each warning code over the protocol", () => {
  for (const code of WARNING_CODES) {
    test(
      `${code}: caught by a passing test it gives \`passed\` and no diagnostic; failing its test it is a warning, never an error`,
      async () => {
        const script = SCRIPTS[code];
        if (!script) throw new Error(`no protocol case for ${code}`);
        const text = `${HEAD}
test("caught", async () => {
  await expect(testWorkflow(note, ${script})).rejects.toThrow();
});

test("not caught", async () => {
  await testWorkflow(note, ${script});
});
`;
        const uri = await server.open(join(MISTAKES, `virtual-severity-${code}.test.ts`), text);
        const runId = `severity-${code}`;
        const from = server.received.length;
        await server.request("turnlens/runTests", { runId, include: [uri], exclude: [] });
        await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.runId === runId && params.message.type === "end", from);
        const results = server
          .all<TestRunProgressParams>("turnlens/testRunProgress", from)
          .filter((params) => params.runId === runId)
          .map((params) => params.message)
          .filter((message) => message.type === "passed" || message.type === "failed");
        expect(results.map((message) => [message.type, "test" in message ? decodeURIComponent(message.test.split("#")[1] ?? "") : ""])).toEqual([
          ["passed", "caught"],
          ["failed", "not caught"],
        ]);
        expect(results[0]).not.toHaveProperty("messages");
        // The failing test's one message is its error, at no place and flagged as marked by its
        // diagnostic (so the extension gives it no turn frames): nothing red over the yellow squiggle.
        const failed = results[1];
        expect(failed?.type === "failed" ? failed.messages : undefined).toEqual([{ message: expect.stringContaining(`agent "`), diagnostic: true }]);
        const published = server
          .all<PublishDiagnosticsParams>("textDocument/publishDiagnostics")
          .filter((params) => params.uri === uri)
          .at(-1);
        const ofCode = (published?.diagnostics ?? []).filter((diagnostic) => diagnostic.code === code);
        // Only the failing test's copy: on "not caught"'s lines (8 onward), none on "caught"'s.
        expect(ofCode.length).toBeGreaterThan(0);
        expect(ofCode.map((diagnostic) => [diagnostic.severity, diagnostic.range.start.line >= 8])).toEqual(ofCode.map(() => [DiagnosticSeverity.Warning, true]));
      },
      SLOW,
    );
  }
});
