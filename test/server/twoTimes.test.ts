// One rule set, run at two times: the mistakes the editor shows before a run are the ones the run
// refuses, in the same words, because the static pass runs core's own option checks on what the
// text makes certain (core/testing/optionsBeforeRun.ts) and keeps no wording of its own.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { defineWorkflow } from "agentswf/workflow";
import { problemsOf, type ProblemTrace } from "turnlens/trace";
import type { FileReport } from "../../core/execution/report.ts";
import { analyzeTestFile } from "../../server/analysis/analyzeTestFile.ts";
import { MISTAKES, ROOT, SLOW, TestServer } from "./harness.ts";

/** The codes of the refusals the static pass can make: the run's refusals of a call's options. */
const OPTION_REFUSALS = ["unknown-option", "script-invalid", "script-empty-list", "option-invalid", "event-id-reused"];

const words = (problem: { code: string; message: string }) => [problem.code, problem.message];

describe("the examples/mistakes files at both times", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await TestServer.started();
  });
  afterAll(() => server.dispose());

  const files = readdirSync(MISTAKES)
    .filter((name) => name.endsWith(".test.ts"))
    .sort();

  test("some mistake is visible before the run", () => {
    const visible = files.filter((name) => analyzeTestFile(name, readFileSync(join(MISTAKES, name), "utf8")).problems.length > 0);
    expect(visible).toEqual(["misspelled-option.test.ts"]);
  });

  for (const name of files) {
    test(
      `${name}: what the editor shows before the run is what the run refuses of its options, word for word`,
      async () => {
        const path = join(MISTAKES, name);
        const before = analyzeTestFile(name, readFileSync(path, "utf8")).problems.map(words);
        const { uri } = await server.openAndRun(path);
        const report: FileReport = server.server.state.currentResults(uri)!.report;
        // A refused call's problems are on its run, and again on the test's error.
        const during = report.tests
          .flatMap((found) => found.runs.flatMap((run) => run.problems))
          .filter((problem) => OPTION_REFUSALS.includes(problem.code))
          .map(words);
        expect(during).toEqual(before);
        await server.close(uri);
      },
      SLOW,
    );
  }
});

const plain = defineWorkflow({
  name: "plain",
  description: "Does nothing.",
  async run() {
    return null;
  },
});

/** One mistake per rule the static pass runs before the call's walk of consts (the rest: staticOptions.test.ts). */
const ONE_PER_RULE: Array<[string, string]> = [
  ["a misspelled option", `{ agnets: {} }`],
  ["an option with no near name", `{ zebrafish: 1 }`],
  ["agents given a list", `{ agents: [answer("x")] }`],
  ["an agent given a number", `{ agents: { writer: 42 } }`],
  ["an agent given a function", `{ agents: { writer: () => "text" } }`],
  ["an agent's list holding a number", `{ agents: { writer: [noAnswer.silent(), 7] } }`],
  ["an agent's empty list", `{ agents: { "writer-*": [] } }`],
  ["decisions given a number", `{ decisions: 3 }`],
  ["a decision given text", `{ decisions: { "triage-1": "payments" } }`],
  ["a decision given answer(…)", `{ decisions: { "triage-1": answer("x") } }`],
  ["compactions given text", `{ compactions: "Outline." }`],
  ["messages given a list", `{ messages: [() => undefined] }`],
  ["participants given a number", `{ participants: 3 }`],
];

/**
 * What both times give: the code, words, option, key and suggestion. A list's first bad `index` is
 * the static pass's only, and so is a decision's key (the run names it in its words).
 */
const comparable = (problem: Pick<ProblemTrace, "message" | "option" | "key" | "suggestion"> & { code: string }) => ({
  code: problem.code,
  message: problem.message,
  option: problem.option,
  key: problem.option === "decisions" ? undefined : problem.key,
  suggestion: problem.suggestion,
});

describe("each rule at both times", () => {
  for (const [name, options] of ONE_PER_RULE) {
    test(`${name}: the static problem is the run's refusal, word for word`, async () => {
      const before = analyzeTestFile("inline.test.ts", `import { answer, noAnswer, testWorkflow } from "agentswf/testing";\ntestWorkflow(flow, ${options});\n`).problems;
      expect(before.length).toBe(1);
      const value: unknown = new Function("answer", "noAnswer", `return (${options});`)(answer, noAnswer);
      let refused: unknown;
      try {
        await testWorkflow(plain, value as never);
      } catch (error) {
        refused = error;
      }
      // The run without events takes no `event`/`events`, so its nearest-name list is the static pass's less those.
      const during = (problemsOf(refused) ?? []).map(comparable);
      // The run names no option on a whole `agents` or `compactions` it refuses; the editor places it on that option.
      const shown = before.map(comparable).map((problem, index) => ({
        ...problem,
        message: problem.message.replace(', "event", "events"', ""),
        option: during[index]?.option === undefined ? undefined : problem.option,
      }));
      expect(during).toEqual(shown);
    });
  }
});

describe("the static pass keeps no rule of its own", () => {
  /** The string and template pieces a file's code writes. */
  function literalsOf(file: string): string[] {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
        found.push(node.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  test("no file of server/analysis words a refusal: core's readers word every option problem", () => {
    const folder = join(ROOT, "server", "analysis");
    const refusalWords = /\bmust\b|given twice|needs one of|takes no option|empty list|give fromStage|not both/;
    const worded = readdirSync(folder)
      .filter((name) => name.endsWith(".ts"))
      .flatMap((name) =>
        literalsOf(join(folder, name))
          .filter((text) => refusalWords.test(text))
          .map((text) => `${name}: ${text}`),
      );
    expect(worded).toEqual([]);
  });
});
