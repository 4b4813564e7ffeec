// The place every `turnlens test` reporter gives a problem (core/execution/failureLocation.ts, read
// from the text with no compiler) against where the editor's diagnostic starts (server/views/runView.ts,
// over TypeScript's syntax tree), for options written in the ways a test writes them: strings and
// comments holding brackets, `as const`, quoted keys, consts, multi-line values.
import { describe, expect, test } from "bun:test";
import { testFailures } from "../../core/execution/failureLocation.ts";
import type { FileReport, Site } from "../../core/execution/report.ts";
import type { ProblemTrace, RunTrace } from "../../core/testing/trace.ts";
import { analyzeTestFile } from "../../server/analysis/analyzeTestFile.ts";
import { defaultSettings } from "../../server/settings.ts";
import { toRunView } from "../../server/views/runView.ts";

const FILE = "/virtual/places.test.ts";
const HEADER = 'import { test } from "bun:test";\nimport { answer, noAnswer, testWorkflow } from "agentswf/testing";\nimport { flow, NOTE } from "./workflows";\n';

/** The 1-based site of the `nth` occurrence of `needle` in `text`, as V8 gives a call's. */
function siteOf(text: string, needle: string, nth = 1): Site {
  let offset = -1;
  for (let found = 0; found < nth; found++) offset = text.indexOf(needle, offset + 1);
  if (offset < 0) throw new Error(`no ${needle} in the text`);
  const before = text.slice(0, offset).split("\n");
  return { file: FILE, line: before.length, column: before.at(-1)!.length + 1 };
}

/** `file:line:col code` of the problem, as the reporters give it and as the editor's diagnostic starts. */
function both(text: string, problem: Omit<ProblemTrace, "message">): { reporters: string[]; editor: string[] } {
  const call = siteOf(text, "testWorkflow(flow");
  const full: ProblemTrace = { message: "m", ...problem };
  const run: RunTrace = { workflow: "flow", site: call, entries: [], turns: [], compactions: [], decisions: [], problems: [full], durationMs: 0 };
  const report: FileReport = {
    file: FILE,
    durationMs: 0,
    tests: [
      {
        id: "places",
        name: "places",
        path: ["places"],
        status: "failed",
        durationMs: 0,
        location: siteOf(text, 'test("places"'),
        error: { message: "m", location: call, problems: [full] },
        runs: [run],
      },
    ],
  };
  const reporters = testFailures(FILE, report.tests[0]!, () => text).map((failure) => `${failure.site?.line}:${failure.site?.column} ${failure.code}`);
  const view = toRunView({ file: FILE, text, model: analyzeTestFile(FILE, text), report, schemas: [], settings: defaultSettings });
  // A problem the static pass shows too is shown once, where the static pass puts it.
  const shown = view.diagnostics[0]?.range ?? view.shownStatically[0]?.range;
  const code = view.diagnostics[0]?.code ?? problem.code;
  const editor = shown ? [`${shown.start.line + 1}:${shown.start.character + 1} ${code}`] : [];
  return { reporters, editor };
}

function expectSame(text: string, problem: Omit<ProblemTrace, "message">, at: Site): void {
  const expected = [`${at.line}:${at.column} ${problem.code}`];
  expect(both(text, problem)).toEqual({ reporters: expected, editor: expected });
}

describe("the reporters' place of a problem is where the editor's diagnostic starts", () => {
  test("a misspelled option past a string and a comment that hold brackets and its name", () => {
    const text = `${HEADER}test("places", async () => {
  await testWorkflow(flow, {
    maxTurns: 3, // agnets: { is not here
    id: "a { [ ( agnets: ",
    runtimes: { note: \`x \${"}"} agnets: {\` } as never,
    agnets: { writer: answer(NOTE, { title: "Release 1.2" }) },
  } as never);
});
`;
    expectSame(text, { code: "unknown-option", option: "agnets", suggestion: "agents" }, siteOf(text, "agnets: {", 3));
  });

  test("a refused answer's value written over several lines after a template literal", () => {
    const text = `${HEADER}test("places", async () => {
  await testWorkflow(flow, {
    agents: {
      "writer": answer(
        NOTE,
        { title: \`v\${","}2\` },
      ),
    },
  });
});
`;
    expectSame(text, { code: "answer-refused", agent: "writer", turn: 1, key: "writer", index: null, site: siteOf(text, "answer(\n") }, siteOf(text, "{ title: `"));
  });

  test("a list run out that is a const, `as const`, given under a quoted key", () => {
    const text = `${HEADER}const STEPS = [answer(NOTE, { title: "one" })] as const;
test("places", async () => {
  await testWorkflow(flow, { agents: { "worker": STEPS } });
});
`;
    const entry = siteOf(text, "answer(NOTE");
    expectSame(text, { code: "list-exhausted", agent: "worker", turn: 2, key: "worker", index: 1, sites: [entry], site: entry }, siteOf(text, "[answer("));
  });

  test("an event never sent on its quoted after, and an entry never reached that is a noAnswer", () => {
    const text = `${HEADER}test("places", async () => {
  await testWorkflow(flow, {
    agents: { writer: [answer("one"), noAnswer.silent()] },
    events: [{ name: "n", data: {}, "after": "writer#2" }],
  });
});
`;
    expectSame(text, { code: "event-never-sent", option: "events", index: 0, agent: "writer", turn: 2 }, siteOf(text, '"after"'));
    const silent = siteOf(text, "silent()");
    expectSame(text, { code: "entry-never-reached", agent: "writer", key: "writer", index: 1, sites: [silent], site: silent }, siteOf(text, "noAnswer.silent"));
  });

  test("two globs in conflict, on the first glob's key; an agent with no script, on the agents object", () => {
    const text = `${HEADER}test("places", async () => {
  await testWorkflow(flow, {
    agents: { "checker-*": answer("a"), "*-b": answer("b") },
  });
});
`;
    expectSame(text, { code: "glob-conflict", agent: "checker-b", turn: 1, option: "agents", patterns: ["checker-*", "*-b"] }, siteOf(text, '"checker-*"'));
    expectSame(text, { code: "agent-unscripted", agent: "writer", turn: 1, option: "agents" }, siteOf(text, '{ "checker-*"'));
  });

  test("a script that is not an entry, on its value", () => {
    const text = `${HEADER}test("places", async () => {
  await testWorkflow(flow, { agents: { writer: 5 as never } });
});
`;
    expectSame(text, { code: "script-invalid", option: "agents", key: "writer" }, siteOf(text, "5 as never"));
  });
});
