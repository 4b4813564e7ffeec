// The static pass (server/analysis): tests and their paths, testWorkflow calls, options, scripts,
// entries and their ranges, the problems visible without a run, and finding things at runtime sites.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatEachName } from "../../core/testApi/eachTable.ts";
import { readOptions } from "../../core/testing/options.ts";
import { readDecisionScripts } from "../../core/testing/scriptedDecisions.ts";
import { readScripts } from "../../core/testing/scripts.ts";
import type { Workflow } from "../../core/workflow/types.ts";
import { analyzeTestFile, callAtSite, entriesAtSite, entryAtSite, looseEntryAtSite, testAt, testAtSite } from "../../server/analysis/analyzeTestFile.ts";
import type { StaticEntry, StaticTestFile } from "../../server/analysis/model.ts";
import { ROOT, SLOW, turnlens } from "../runner/harness.ts";
import type { Fixture } from "./check/annotations.ts";
import { checkStaticProblems } from "./check/checkStaticProblems.ts";
import { positionAt, rangeOf, siteOf, textIn } from "./textRanges.ts";

const HEADER = `import { describe, expect, it, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import summarize, { SUMMARY } from "./summarize";
`;

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const analyze = (source: string, fileName = "inline.test.ts") => analyzeTestFile(fileName, source);

/** What core throws for a value, so the static wording is checked against the runtime's. */
function coreMessage(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("core accepted the value");
}

const aWorkflow = { name: "note" } as unknown as Workflow<unknown, unknown>;

/**
 * The entry `answer(schema, value)` outside a list, as the analysis models it: its callee and schema
 * are the first after `after`.
 */
function schemaAnswer(source: string, entry: { schema: string; value: string; after: string }) {
  const { schema, value, after } = entry;
  return {
    kind: "answer",
    range: rangeOf(source, `answer(${schema}, ${value})`),
    calleeRange: rangeOf(source, "answer", { after }),
    schemaRange: rangeOf(source, schema, { after }),
    schemaText: schema,
    valueRange: rangeOf(source, value),
    index: null,
  };
}

/** The texts of a fixture's annotations, in the order written. */
const messages = (fixture: Fixture) => fixture.annotations.map((annotation) => annotation.text);

describe("tests and their paths", () => {
  test("a test's name, path and ranges come from its call, and its callee is where a lens goes", () => {
    const source = `${HEADER}
test("returns the summary", async () => {
  expect(1).toBe(1);
});
`;
    const [found, ...rest] = analyze(source).tests;
    expect(rest).toEqual([]);
    expect(found).toEqual({
      kind: "test",
      name: "returns the summary",
      path: ["returns the summary"],
      range: { start: rangeOf(source, 'test("returns').start, end: rangeOf(source, "})").end },
      calleeRange: rangeOf(source, "test", { after: "\n\n" }),
    });
  });

  test("nested describes give each test the describe names then its own, as the runner's path", () => {
    const source = `${HEADER}
describe("outer", () => {
  describe("inner", () => {
    it("deep", () => {});
  });
  test("shallow", () => {});
});
test("top", () => {});
`;
    const { tests } = analyze(source);
    expect(tests.map((found) => [found.kind, found.path, found.parent])).toEqual([
      ["describe", ["outer"], undefined],
      ["describe", ["outer", "inner"], 0],
      ["test", ["outer", "inner", "deep"], 1],
      ["test", ["outer", "shallow"], 0],
      ["test", ["top"], undefined],
    ]);
    expect(tests[2]!.calleeRange).toEqual(rangeOf(source, "it", { after: 'describe("inner"' }));
  });

  test("modifiers are kept, and the callee spans the names without their arguments", () => {
    const source = `${HEADER}
test.skip("skipped", () => {});
it.only("only", () => {});
test.todo("to write");
test.failing("fails on purpose", () => {});
test.if(process.env.CI)("on CI", () => {});
test.skipIf(false).only("chained", () => {});
describe.todo("a describe to write");
`;
    const { tests } = analyze(source);
    expect(tests.map((found) => [found.kind, found.modifier, found.name])).toEqual([
      ["test", "skip", "skipped"],
      ["test", "only", "only"],
      ["test", "todo", "to write"],
      ["test", "failing", "fails on purpose"],
      ["test", "if", "on CI"],
      ["test", "skipIf.only", "chained"],
      ["describe", "todo", "a describe to write"],
    ]);
    expect(textIn(source, tests[1]!.calleeRange)).toBe("it.only");
    expect(textIn(source, tests[4]!.calleeRange)).toBe("test.if");
    expect(textIn(source, tests[5]!.calleeRange)).toBe("test.skipIf(false).only");
  });

  test("test.each(rows)(name) is one test whose pattern matches the name the runner gives each row", () => {
    const source = `${HEADER}
test.each([
  [1, 2, 3],
  [2, 3, 5],
])("adds %d + %d to make %d", (a, b, sum) => {});
it.each([{ who: "ada" }])("greets $who (row %#)", () => {});
`;
    const [rows, objects] = analyze(source).tests;
    expect(rows).toMatchObject({ kind: "test", modifier: "each", name: "adds %d + %d to make %d" });
    expect(textIn(source, rows!.calleeRange)).toBe("test.each");
    expect(rows!.range.start).toEqual(rangeOf(source, "test.each").start);
    const pattern = new RegExp(rows!.namePattern!);
    expect(pattern.test(formatEachName(rows!.name, [1, 2, 3], 0))).toBe(true);
    expect(pattern.test(formatEachName(rows!.name, [2, 3, 5], 1))).toBe(true);
    expect(pattern.test("adds 1 + 2 to make")).toBe(false);
    expect(new RegExp(objects!.namePattern!).test(formatEachName(objects!.name, { who: "ada" }, 0))).toBe(true);
  });

  test("describe.each with a table template names its describe with a pattern its tests inherit", () => {
    const source = `${HEADER}
describe.each\`
  flavour
  \${"bun"}
\`("under $flavour", ({ flavour }) => {
  test("runs", () => {});
});
`;
    const model = analyze(source);
    expect(model.tests.map((found) => found.path)).toEqual([["under $flavour"], ["under $flavour", "runs"]]);
    expect(model.tests[0]!.modifier).toBe("each");
    expect(testAt(model, ["under bun", "runs"])).toBe(model.tests[1]);
  });

  test("a template name with substitutions matches by pattern; a name that is no literal matches any name", () => {
    const source = `${HEADER}
const NAME = "named elsewhere";
test(\`runs \${"as"} written\`, () => {});
test(NAME, () => {});
test(42, () => {});
`;
    const [template, named, numbered] = analyze(source).tests;
    expect(template).toMatchObject({ name: 'runs ${"as"} written' });
    expect(new RegExp(template!.namePattern!).test("runs as written")).toBe(true);
    expect(named).toMatchObject({ name: "NAME" });
    expect(new RegExp(named!.namePattern!).test("named elsewhere")).toBe(true);
    expect(numbered).toEqual(expect.objectContaining({ name: "42" }));
    expect(numbered!.namePattern).toBeUndefined();
  });

  test("test and describe imported under other names from bun:test or vitest are found", () => {
    const source = `import { test as check, describe as group } from "bun:test";
import * as vitest from "vitest";
group("a group", () => {
  check("a check", () => {});
  vitest.it.skip("a vitest test", () => {});
});
`;
    const { tests } = analyze(source);
    expect(tests.map((found) => [found.kind, found.path])).toEqual([
      ["describe", ["a group"]],
      ["test", ["a group", "a check"]],
      ["test", ["a group", "a vitest test"]],
    ]);
    expect(textIn(source, tests[2]!.calleeRange)).toBe("vitest.it.skip");
  });

  test("calls that only look like tests are not tests: expect, a member of test that is no modifier, .each not yet called", () => {
    const source = `${HEADER}
const table = test.each([[1]]);
test.extend({});
expect(1).toBe(1);
`;
    expect(analyze(source).tests).toEqual([]);
  });

  test(
    "every test of a fixture is found by the path and location the runner reported for it",
    async () => {
      const fixture = join(ROOT, "test/server/fixtures/testNames.fixture.ts");
      const result = await turnlens([fixture, "--reporter", "json"]);
      const report = JSON.parse(result.stdout) as { files: Array<{ tests: Array<{ id: string; path: string[]; location: { line: number; column: number } }> }> };
      const reported = report.files[0]!.tests;
      expect(reported.length).toBe(12);
      const model = analyzeTestFile(fixture, readFileSync(fixture, "utf8"));
      for (const each of reported) {
        const occurrence = /\((\d+)\)$/.exec(each.id)?.[1];
        const found = testAt(model, each.path, occurrence ? Number(occurrence) : 1);
        expect({ path: each.path, found: found?.kind }).toEqual({ path: each.path, found: "test" });
        expect(testAtSite(model, each.location.line, each.location.column)).toBe(found);
      }
    },
    SLOW,
  );
});

describe("testWorkflow calls and their options", () => {
  const source = `${HEADER}
const args = { file: "README.md" };
test("summarises", async () => {
  const run = await testWorkflow(summarize, {
    args,
    "id": "run-1",
    agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) },
    maxTurns: 3,
  });
});
`;

  test("every option is found with its name, the whole property and the value, a shorthand's value being its name", () => {
    const [call] = analyze(source).calls;
    const shorthand = rangeOf(source, "args", { after: "testWorkflow(summarize, {" });
    expect(call!.options).toEqual([
      { name: "args", nameRange: shorthand, propertyRange: shorthand, valueRange: shorthand },
      { name: "id", nameRange: rangeOf(source, '"id"'), propertyRange: rangeOf(source, '"id": "run-1"'), valueRange: rangeOf(source, '"run-1"') },
      {
        name: "agents",
        nameRange: rangeOf(source, "agents", { after: "run-1" }),
        propertyRange: rangeOf(source, 'agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) }'),
        valueRange: rangeOf(source, '{ reader: answer(SUMMARY, { summary: "Two sentences." }) }'),
      },
      {
        name: "maxTurns",
        nameRange: rangeOf(source, "maxTurns"),
        propertyRange: rangeOf(source, "maxTurns: 3"),
        valueRange: rangeOf(source, "3", { after: "maxTurns: " }),
      },
    ]);
  });

  test("the call, its callee, the workflow's text and module, and the options object have their ranges", () => {
    const model = analyze(source);
    const [call] = model.calls;
    expect(call).toMatchObject({
      calleeRange: rangeOf(source, "testWorkflow", { after: "async () =>" }),
      workflowText: "summarize",
      workflowRange: rangeOf(source, "summarize", { after: "testWorkflow(" }),
      workflowModule: "./summarize",
      hasSpread: false,
      testIndex: 0,
    });
    expect(call!.range).toEqual({ start: call!.calleeRange.start, end: rangeOf(source, "  })").end });
    expect(call!.optionsRange).toEqual({
      start: rangeOf(source, "{", { after: "testWorkflow(summarize, " }).start,
      end: rangeOf(source, "}", { after: "maxTurns: 3,\n  " }).end,
    });
    expect(model.imports).toEqual({
      "bun:test": ["describe", "expect", "it", "test"],
      "agentswf/testing": ["answer", "noAnswer", "testWorkflow"],
      "./summarize": ["summarize", "SUMMARY"],
    });
  });

  test("a spread or a computed name in the options is flagged as names the static pass cannot see", () => {
    const spread = `${HEADER}
const shared = { args: {} };
const key = "agents";
testWorkflow(summarize, { ...shared, maxTurns: 2 });
testWorkflow(summarize, { [key]: {} });
testWorkflow(summarize, { ["stall"]: "1s" });
`;
    const calls = analyze(spread).calls;
    expect(calls.map((call) => [call.hasSpread, call.options.map((option) => option.name)])).toEqual([
      [true, ["maxTurns"]],
      [true, []],
      [false, ["stall"]],
    ]);
    expect(calls[2]!.options[0]!.nameRange).toEqual(rangeOf(spread, '["stall"]'));
  });

  test("a call outside any test has no test; options that are no object literal give no options", () => {
    const outside = `${HEADER}
const options = { args: {} };
const shared = testWorkflow(summarize, options);
describe("group", () => {
  test("inner", async () => {
    await testWorkflow(summarize);
  });
});
`;
    const { calls } = analyze(outside);
    expect(calls[0]).toMatchObject({ options: [], hasSpread: false, workflowModule: "./summarize" });
    expect(calls[0]!.testIndex).toBeUndefined();
    expect(calls[0]!.optionsRange).toBeUndefined();
    expect(calls[1]!.testIndex).toBe(1);
  });

  test("testWorkflow, answer and noAnswer imported under other names are found, and only from the testing modules", () => {
    const aliased = `import { test } from "bun:test";
import { testWorkflow as tw, answer as reply, noAnswer as none } from "turnlens/testing";
import * as flows from "./workflows";
test("aliased", async () => {
  await tw(flows.note, { agents: { writer: reply(flows.NOTE, { title: "Release" }), checker: [none.silent(), none.failed("crash")] } });
});
`;
    const [call] = analyze(aliased).calls;
    expect(call!.calleeRange).toEqual(rangeOf(aliased, "tw", { after: "await " }));
    expect(call!.workflowModule).toBe("./workflows");
    const [writer, checker] = call!.agents!.scripts;
    expect(writer!.entries[0]).toMatchObject({ kind: "answer", calleeRange: rangeOf(aliased, "reply", { after: "writer: " }), schemaText: "flows.NOTE" });
    expect(checker!.entries.map((entry) => [entry.kind, textIn(aliased, entry.calleeRange!)])).toEqual([
      ["noAnswer.silent", "silent"],
      ["noAnswer.failed", "failed"],
    ]);
  });

  test("a namespace import of the testing module is followed to testWorkflow, answer and noAnswer", () => {
    const namespaced = `import { test } from "bun:test";
import * as testing from "agentswf/testing";
import { note, NOTE } from "./workflows";
test("namespaced", async () => {
  await testing.testWorkflow(note, { agents: { writer: [testing.answer(NOTE, { title: "Release" }), testing.noAnswer.hang()] } });
});
`;
    const [call] = analyze(namespaced).calls;
    expect(call!.calleeRange).toEqual(rangeOf(namespaced, "testWorkflow", { after: "testing." }));
    expect(call!.agents!.scripts[0]!.entries.map((entry) => [entry.kind, textIn(namespaced, entry.calleeRange!)])).toEqual([
      ["answer", "answer"],
      ["noAnswer.hang", "hang"],
    ]);
  });
});

describe("scripts and entries", () => {
  test("each agents key gives a script: quoted keys keep their quotes in the key range, numbers read as the runtime reads them", () => {
    const source = `${HEADER}
testWorkflow(summarize, {
  agents: { reader: noAnswer.silent(), "verifier-*": answer("ok"), 1e3: answer("n") },
});
`;
    const scripts = analyze(source).calls[0]!.agents!.scripts;
    expect(scripts.map((script) => [script.key, textIn(source, script.keyRange), script.shape])).toEqual([
      ["reader", "reader", "entry"],
      ["verifier-*", '"verifier-*"', "entry"],
      ["1000", "1e3", "entry"],
    ]);
    expect(scripts[1]).toMatchObject({
      propertyRange: rangeOf(source, '"verifier-*": answer("ok")'),
      valueRange: rangeOf(source, 'answer("ok")'),
    });
  });

  test("answer(SCHEMA, value) has its callee, schema and value ranges; answer(text) has a value and no schema", () => {
    const source = `${HEADER}
testWorkflow(summarize, {
  agents: {
    reader: answer(SUMMARY, { summary: "Two sentences." }),
    writer: answer((turn) => turn.prompt),
  },
});
`;
    const [reader, writer] = analyze(source).calls[0]!.agents!.scripts;
    expect(reader!.entries).toEqual([schemaAnswer(source, { schema: "SUMMARY", value: '{ summary: "Two sentences." }', after: "reader: " })]);
    expect(writer!.entries).toEqual([
      {
        kind: "answer",
        range: rangeOf(source, "answer((turn) => turn.prompt)"),
        calleeRange: rangeOf(source, "answer", { after: "writer: " }),
        valueRange: rangeOf(source, "(turn) => turn.prompt"),
        index: null,
      },
    ]);
  });

  test("noAnswer's callee is the method's name, where V8 puts the call, and its argument is the value", () => {
    const source = `${HEADER}
testWorkflow(summarize, { agents: { reader: noAnswer.blocked("a prompt"), other: noAnswer.silent() } });
`;
    const [blocked, silent] = analyze(source).calls[0]!.agents!.scripts.map((script) => script.entries[0]!);
    expect(blocked).toEqual({
      kind: "noAnswer.blocked",
      range: rangeOf(source, 'noAnswer.blocked("a prompt")'),
      calleeRange: rangeOf(source, "blocked"),
      valueRange: rangeOf(source, '"a prompt"'),
      index: null,
    });
    expect(silent).toEqual({ kind: "noAnswer.silent", range: rangeOf(source, "noAnswer.silent()"), calleeRange: rangeOf(source, "silent"), index: null });
  });

  test("a list gives an entry per element with its index, anything else as other, and where a new entry would go", () => {
    const source = `${HEADER}
const helper = () => answer("from a helper");
testWorkflow(summarize, {
  agents: {
    reader: [
      answer(SUMMARY, { summary: "one" }),
      helper(),
      noAnswer.silent(),
    ],
  },
});
`;
    const [reader] = analyze(source).calls[0]!.agents!.scripts;
    expect(reader!.shape).toBe("list");
    expect(reader!.entries.map((entry) => [entry.kind, entry.index, textIn(source, entry.range)])).toEqual([
      ["answer", 0, 'answer(SUMMARY, { summary: "one" })'],
      ["other", 1, "helper()"],
      ["noAnswer.silent", 2, "noAnswer.silent()"],
    ]);
    expect(reader!.listEnd).toEqual(rangeOf(source, "noAnswer.silent()").end);
    expect(reader!.valueRange).toEqual({ start: rangeOf(source, "[").start, end: rangeOf(source, "]", { after: "noAnswer.silent()" }).end });
  });

  test("a script naming a const is followed to it, where the run's sites point: examples/review", () => {
    const source = read("examples/review/workflow.test.ts");
    const model = analyzeTestFile("workflow.test.ts", source);
    const [verifiers, lead] = model.calls[0]!.agents!.scripts;
    expect(verifiers).toMatchObject({ key: "verifier-*", shape: "other", entries: [], valueRange: rangeOf(source, "clean", { after: "agents: {" }) });
    expect(verifiers!.definition).toEqual({
      name: "clean",
      range: rangeOf(source, "answer(VERDICT, { ok: true, findings: [] })"),
      shape: "entry",
      entries: [schemaAnswer(source, { schema: "VERDICT", value: "{ ok: true, findings: [] }", after: "const clean = " })],
    });
    expect(lead).toMatchObject({ key: "lead", shape: "other", keyRange: rangeOf(source, "lead", { after: '"verifier-*": clean, ' }) });
    expect(lead!.definition!.shape).toBe("list");
    expect(lead!.definition!.entries.map((entry) => [entry.index, entry.schemaText, entry.calleeRange])).toEqual([
      [0, "DECISION", rangeOf(source, "answer", { after: "const lead = [" })],
      [1, undefined, rangeOf(source, "answer", { after: "const lead = [", nth: 2 })],
    ]);
    expect(lead!.definition!.listEnd).toEqual(rangeOf(source, 'answer("Looks good, merging.")').end);
    expect(model.looseEntries).toEqual([]);
  });

  test("examples/review: every test, call, option and script key is where the text has it", () => {
    const source = read("examples/review/workflow.test.ts");
    const model = analyzeTestFile("workflow.test.ts", source);
    const names = [...source.matchAll(/^test\("([^"]+)"/gm)].map((match) => match[1]!);
    expect(model.tests.map((found) => found.path)).toEqual(names.map((name) => [name]));
    expect(model.tests.map((found) => found.calleeRange)).toEqual(
      names.map((name) => {
        const { start } = rangeOf(source, `test("${name}"`);
        return { start, end: { line: start.line, character: start.character + "test".length } };
      }),
    );
    const expected = [
      { options: ["args", "agents"], keys: ["verifier-*", "lead"] },
      { options: ["args", "agents"], keys: ["verifier-*", "verifier-2", "lead"] },
      { options: ["args", "agents"], keys: ["verifier-*", "verifier-3"] },
      { options: ["args", "agents", "runtimes"], keys: ["verifier-*", "lead"] },
    ];
    expect(model.calls.map((call) => call.testIndex)).toEqual([0, 1, 2, 3]);
    model.calls.forEach((call, index) => {
      const inTest = [names[index]!, "testWorkflow("];
      expect(call.calleeRange).toEqual(rangeOf(source, "testWorkflow", { after: names[index]! }));
      expect(call.options.map((option) => [option.name, option.nameRange])).toEqual(
        expected[index]!.options.map((name) => [name, rangeOf(source, name, { after: inTest })]),
      );
      expect(call.agents!.scripts.map((script) => [script.key, script.keyRange])).toEqual(
        expected[index]!.keys.map((key) => [key, rangeOf(source, key === "lead" ? key : JSON.stringify(key), { after: [...inTest, "agents: {"] })]),
      );
    });
  });

  test("a list element naming a const entry gets that entry as its definition, with the element's index", () => {
    const source = `${HEADER}
const done = answer(SUMMARY, { summary: "done" });
testWorkflow(summarize, { agents: { reader: [noAnswer.silent(), done] } });
`;
    const [, named] = analyze(source).calls[0]!.agents!.scripts[0]!.entries;
    expect(named).toMatchObject({ kind: "other", index: 1, range: rangeOf(source, "done", { after: "noAnswer.silent(), " }) });
    expect(named!.definition).toMatchObject({ kind: "answer", index: 1, calleeRange: rangeOf(source, "answer", { after: "const done = " }) });
  });

  test("a const declared further down, or in an inner block, is the one the name sees", () => {
    const source = `${HEADER}
const reply = answer("outer");
test("shadowed", async () => {
  const reply = answer("inner");
  await testWorkflow(summarize, { agents: { reader: reply } });
});
test("declared later", async () => {
  await testWorkflow(summarize, { agents: { reader: later } });
});
const later = [answer("later")];
`;
    const [shadowed, declaredLater] = analyze(source).calls;
    expect(shadowed!.agents!.scripts[0]!.definition!.range).toEqual(rangeOf(source, 'answer("inner")'));
    expect(declaredLater!.agents!.scripts[0]!.definition).toMatchObject({ shape: "list", range: rangeOf(source, '[answer("later")]') });
  });

  test("decisions keys are read like agents keys: their answers are other, never entries", () => {
    const source = `${HEADER}
testWorkflow(summarize, { decisions: { "triage-*": { team: "payments" }, "triage-2": () => new Error("down") } });
`;
    const { decisions } = analyze(source).calls[0]!;
    expect(decisions!.objectRange).toEqual(rangeOf(source, '{ "triage-*": { team: "payments" }, "triage-2": () => new Error("down") }'));
    expect(decisions!.scripts.map((script) => [script.key, script.shape, script.entries])).toEqual([
      ["triage-*", "other", []],
      ["triage-2", "other", []],
    ]);
  });

  test("answer calls no script reaches are loose entries: in a helper, or returned by a function entry", () => {
    const source = `${HEADER}
const asking = (text: string) => answer(SUMMARY, async () => ({ summary: text }));
testWorkflow(summarize, {
  agents: { reader: [asking("a"), answer(SUMMARY, () => noAnswer.failed("late"))] },
});
`;
    const model = analyze(source);
    expect(model.looseEntries!.map((entry) => [entry.kind, entry.calleeRange])).toEqual([
      ["answer", rangeOf(source, "answer", { after: "const asking" })],
      ["noAnswer.failed", rangeOf(source, "failed")],
    ]);
    const site = siteOf(source, "answer", { after: "const asking" });
    expect(looseEntryAtSite(model, site.line, site.column)).toBe(model.looseEntries![0]);
  });
});

describe("problems visible without a run", () => {
  test("a misspelled option is refused on its name with the nearest name, as core words it: examples/mistakes", () => {
    const fixture = checkStaticProblems(
      `// An option testWorkflow doesn't take is refused, named, so a misspelling fails rather than
// being ignored. Fails with: testWorkflow takes no option "agnets"; did you mean "agents"?
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { note, NOTE } from "./workflows";

test("a misspelled option", async () => {
  await testWorkflow(note, {
    // @ts-expect-error -- tsc refuses the name too; the test shows what the run says.
    agnets: { writer: answer(NOTE, { title: "Release 1.2" }) },
//  ^^^^^^ problem[unknown-option, option "agnets", suggestion "agents"]: testWorkflow takes no option "agnets"; did you mean "agents"?
  });
});
`,
      "misspelled-option.test.ts",
    );
    expect(fixture.text).toBe(read("examples/mistakes/misspelled-option.test.ts"));
    expect(messages(fixture)).toEqual([coreMessage(() => readOptions(aWorkflow, { agnets: {} }))]);
  });

  test("an option in another case, or a quoted one, is matched as core matches it", () => {
    const fixture = checkStaticProblems(`${HEADER}
testWorkflow(summarize, { MAXTURNS: 3, "timout": "1s" });
//                        ^^^^^^^^ problem[unknown-option, option "MAXTURNS", suggestion "maxTurns"]: testWorkflow takes no option "MAXTURNS"; did you mean "maxTurns"?
//                                     ^^^^^^^^ problem[unknown-option, option "timout", suggestion "timeout"]: testWorkflow takes no option "timout"; did you mean "timeout"?
`);
    expect(messages(fixture)).toEqual([coreMessage(() => readOptions(aWorkflow, { MAXTURNS: 3 })), coreMessage(() => readOptions(aWorkflow, { timout: "1s" }))]);
  });

  test("an option with no near name lists every name the static pass takes, event and events included", () => {
    checkStaticProblems(`${HEADER}
testWorkflow(summarize, { zebrafish: 1, event: { name: "x" }, events: [] });
//                        ^^^^^^^^^ problem[unknown-option, option "zebrafish"]: testWorkflow takes no option "zebrafish"; it takes "args", "id", "agents", "compactions", "messages", "participants", "decisions", "allowance", "runtimes", "caller", "timeout", "stall", "maxTimers", "maxTurns", "files", "cwd", "panes", "earlier", "fromStage", "values", "event", "events"
`);
  });

  test("a number, string, object literal, null or undefined where a script goes is invalid on the value, as core words it", () => {
    const fixture = checkStaticProblems(`${HEADER}
testWorkflow(summarize, {
  agents: { a: 42, b: "hi", c: { title: "x" }, d: null, e: undefined, f: () => "text" },
//             ^^ problem[script-invalid, option "agents", key "a"]: agents["a"] must be answer(…), noAnswer.…() or a list of them, not 42
//                    ^^^^ problem[script-invalid, option "agents", key "b"]: agents["b"] must be answer(…), noAnswer.…() or a list of them, not "hi"
//                             ^^^^^^^^^^^^^^ problem[script-invalid, option "agents", key "c"]: agents["c"] must be answer(…), noAnswer.…() or a list of them, not {"title":"x"}
//                                                ^^^^ problem[script-invalid, option "agents", key "d"]: agents["d"] must be answer(…), noAnswer.…() or a list of them, not null
//                                                         ^^^^^^^^^ problem[script-invalid, option "agents", key "e"]: agents["e"] must be answer(…), noAnswer.…() or a list of them, not undefined
//                                                                       ^^^^^^^^^^^^ problem[script-invalid, option "agents", key "f"]: agents["f"] must be answer(…), noAnswer.…() or a list of them, not a function
});
`);
    const values: Array<[string, unknown]> = [
      ["a", 42],
      ["b", "hi"],
      ["c", { title: "x" }],
      ["d", null],
      ["e", undefined],
      ["f", () => "text"],
    ];
    expect(messages(fixture)).toEqual(values.map(([key, value]) => coreMessage(() => readScripts("agents", { [key]: value }))));
  });

  test("a list holding something that is not an entry is invalid on the whole list, naming the first bad index", () => {
    const fixture = checkStaticProblems(`${HEADER}
testWorkflow(summarize, { agents: { reader: [noAnswer.silent(), 7, "x"], plain: [1, 2] } });
//                                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^ problem[script-invalid, option "agents", key "reader", index 1]: agents["reader"] must be answer(…), noAnswer.…() or a list of them, not [noAnswer.silent(), 7, "x"]
//                                                                              ^^^^^^ problem[script-invalid, option "agents", key "plain", index 0]: agents["plain"] must be answer(…), noAnswer.…() or a list of them, not [1,2]
`);
    expect(messages(fixture)[1]).toBe(coreMessage(() => readScripts("agents", { plain: [1, 2] })));
  });

  test("a name or a call of something else is not judged: it may hold or return an entry", () => {
    checkStaticProblems(`${HEADER}
const shared = answer("ok");
const make = () => answer("ok");
testWorkflow(summarize, { agents: { a: shared, b: make(), c: [shared, make()], d: { ...shared } } });
`);
  });

  test("an empty list is its own problem, on the [], as core words it", () => {
    const fixture = checkStaticProblems(`${HEADER}
testWorkflow(summarize, { agents: { "writer-*": [] } });
//                                              ^^ problem[script-empty-list, option "agents", key "writer-*"]: agents["writer-*"] is an empty list; a list has an entry per turn
`);
    expect(messages(fixture)).toEqual([coreMessage(() => readScripts("agents", { "writer-*": [] }))]);
  });

  test("agents or decisions given something other than an object, and a decision key given a plain value, are invalid as core words them", () => {
    const fixture = checkStaticProblems(`${HEADER}
testWorkflow(summarize, { agents: [answer("x")], decisions: { "triage-1": "payments", "triage-2": { bug: 0.9 }, "triage-3": () => ({}) } });
//                                ^^^^^^^^^^^^^ problem[script-invalid, option "agents"]: agents must map a key to a script, not [answer(…)]
//                                                                        ^^^^^^^^^^ problem[script-invalid, option "decisions", key "triage-1"]: decisions["triage-1"] must be answers by question id, an Error or a function, not "payments"
testWorkflow(summarize, { decisions: 3, agents: undefined });
//                                   ^ problem[script-invalid, option "decisions"]: decisions must map a decision key to its answers, not 3
`);
    expect(messages(fixture).slice(1)).toEqual([coreMessage(() => readDecisionScripts({ "triage-1": "payments" })), coreMessage(() => readDecisionScripts(3))]);
  });

  test("positions count UTF-16 code units as LSP does, and CRLF line ends give the same positions", () => {
    const source = `${HEADER}
test("😀 é", async () => { await testWorkflow(summarize, { agnets: {} }); });
`;
    const [problem] = analyze(source).problems;
    const line = source.split("\n")[problem!.range.start.line]!;
    expect(problem!.range).toEqual(rangeOf(source, "agnets"));
    expect(problem!.range.start.character).toBe(line.indexOf("agnets"));
    expect(problem!.range.start.character).toBe([...line.slice(0, line.indexOf("agnets"))].length + 1);
    expect(analyze(source.replace(/\n/g, "\r\n")).problems[0]!.range).toEqual(problem!.range);
  });

  test("of the examples/mistakes files only the misspelling is visible without a run", () => {
    const folder = join(ROOT, "examples/mistakes");
    const withProblems = readdirSync(folder)
      .filter((name) => name.endsWith(".test.ts"))
      .filter((name) => analyzeTestFile(name, readFileSync(join(folder, name), "utf8")).problems.length > 0);
    expect(withProblems).toEqual(["misspelled-option.test.ts"]);
  });

  test("a file being typed, with syntax errors, still gives what can be read", () => {
    const source = `${HEADER}
test("half written", async () => {
  await testWorkflow(summarize, { agnets: { reader: answer(SUMMARY,
`;
    const model = analyze(source);
    expect(model.tests.map((found) => found.name)).toEqual(["half written"]);
    expect(model.problems.map((problem) => problem.suggestion)).toEqual(["agents"]);
  });
});

describe("the examples/mistakes files, read as written", () => {
  /** Each file's one test, its call's options and scripts with the kinds of their entries. */
  const expectations: Record<string, { test: string; options: string[]; scripts: Record<string, string[]> }> = {
    "entry-never-reached.test.ts": { test: "a list entry never reached", options: ["agents"], scripts: { writer: ["answer", "answer"] } },
    "misspelled-option.test.ts": { test: "a misspelled option", options: ["agnets"], scripts: {} },
    "refused-answer.test.ts": { test: "an answer the schema refuses", options: ["agents"], scripts: { writer: ["answer"] } },
    "schema-mismatch.test.ts": { test: "an answer for another schema", options: ["agents"], scripts: { writer: ["answer"] } },
    "script-threw.test.ts": { test: "a script that throws", options: ["agents"], scripts: { writer: ["answer"] } },
    "stall.test.ts": { test: "a turn nobody ends", options: ["agents", "stall"], scripts: { writer: ["noAnswer.hang"] } },
    "too-many-turns.test.ts": { test: "a loop that never ends", options: ["agents", "maxTurns"], scripts: { worker: ["answer"] } },
    "turn-past-list.test.ts": { test: "a turn past the list's end", options: ["agents"], scripts: { worker: ["answer"] } },
    "two-globs.test.ts": { test: "two patterns match one agent", options: ["agents"], scripts: { "checker-*": ["answer"], "*-b": ["answer"] } },
    "unscripted-agent.test.ts": { test: "an agent with no script", options: ["agents"], scripts: { reader: ["answer"] } },
  };

  for (const [file, expected] of Object.entries(expectations)) {
    test(`${file}: the test, the call, each option, script key, entry and schema are where the text has them`, () => {
      const source = read(`examples/mistakes/${file}`);
      const model = analyzeTestFile(file, source);
      expect(model.tests).toEqual([
        {
          kind: "test",
          name: expected.test,
          path: [expected.test],
          range: { start: rangeOf(source, `test("`).start, end: positionAt(source, source.trimEnd().length - 1) },
          calleeRange: rangeOf(source, "test", { after: 'from "./workflows";\n' }),
        },
      ]);
      const [call, ...others] = model.calls;
      expect(others).toEqual([]);
      expect(call!.calleeRange).toEqual(rangeOf(source, "testWorkflow", { after: "await " }));
      expect(call!.testIndex).toBe(0);
      expect(call!.workflowModule).toBe("./workflows");
      expect(call!.options.map((option) => [option.name, option.nameRange])).toEqual(
        expected.options.map((name) => [name, rangeOf(source, name, { after: "testWorkflow(" })]),
      );
      const scripts = call!.agents?.scripts ?? [];
      expect(Object.fromEntries(scripts.map((script) => [script.key, script.entries.map((entry) => entry.kind)]))).toEqual(expected.scripts);
      for (const script of scripts) {
        expect(textIn(source, script.keyRange)).toBe(/^\w+$/.test(script.key) ? script.key : JSON.stringify(script.key));
        script.entries.forEach((entry, position) => {
          const needle = entry.kind === "answer" ? "answer(" : `${entry.kind}(`;
          const start = rangeOf(source, needle, { after: ["testWorkflow(", textIn(source, script.keyRange)], nth: position + 1 }).start;
          expect(entry.range.start).toEqual(start);
          expect(entry.index).toBe(script.shape === "list" ? position : null);
          const callee = entry.kind === "answer" ? "answer" : entry.kind.slice("noAnswer.".length);
          expect(textIn(source, entry.calleeRange!)).toBe(callee);
          if (entry.schemaRange) expect(textIn(source, entry.schemaRange)).toBe(entry.schemaText!);
        });
      }
    });
  }

  test("turn-past-list.test.ts: the list ends after its only entry, where a second would go", () => {
    const source = read("examples/mistakes/turn-past-list.test.ts");
    const [worker] = analyzeTestFile("turn-past-list.test.ts", source).calls[0]!.agents!.scripts;
    expect(worker).toMatchObject({ shape: "list", listEnd: rangeOf(source, "answer(STEP, { done: false })").end });
    expect(worker!.entries[0]).toMatchObject({ schemaText: "STEP", valueRange: rangeOf(source, "{ done: false }") });
  });
});

describe("finding what a run reported", () => {
  const source = read("examples/review/workflow.test.ts");
  const model: StaticTestFile = analyzeTestFile(join(ROOT, "examples/review/workflow.test.ts"), source);

  test("entryAtSite finds each entry at the site a run reports, consts included", () => {
    const at = (needle: string, after?: string) => {
      const site = siteOf(source, needle, after ? { after } : {});
      return entryAtSite(model, site.line, site.column);
    };
    expect(at("answer", "const clean = ")).toMatchObject({ script: { key: "verifier-*" }, entry: { kind: "answer", index: null, schemaText: "VERDICT" } });
    expect(at("answer", "const lead = [")).toMatchObject({ script: { key: "lead" }, entry: { index: 0, schemaText: "DECISION" } });
    expect(at('answer("Looks good')).toMatchObject({ script: { key: "lead" }, entry: { index: 1 } });
    expect(at("timedOut")).toMatchObject({ call: { testIndex: 1 }, script: { key: "verifier-2" }, entry: { kind: "noAnswer.timedOut" } });
    expect(at("hang")).toMatchObject({ script: { key: "verifier-*" }, entry: { kind: "noAnswer.hang" } });
    expect(at("failed(")).toMatchObject({ script: { key: "verifier-3" }, entry: { kind: "noAnswer.failed" } });
  });

  test("a const shared by several calls is reached from each; a test index picks that test's call", () => {
    const site = siteOf(source, "answer", { after: "const clean = " });
    expect(entriesAtSite(model, site.line, site.column).map((found) => found.call.testIndex)).toEqual([0, 1, 3]);
    expect(entryAtSite(model, site.line, site.column, 3)?.call.testIndex).toBe(3);
  });

  test("a site anywhere inside an entry finds it, the innermost first", () => {
    const inside = siteOf(source, "approve: false", { after: "const lead = [" });
    expect(entryAtSite(model, inside.line, inside.column)?.entry).toMatchObject({ index: 0, schemaText: "DECISION" });
    const outside = siteOf(source, "expect(run.value)");
    expect(entryAtSite(model, outside.line, outside.column)).toBeUndefined();
  });

  test("callAtSite finds the testWorkflow call at a run's site, testAt and testAtSite the test", () => {
    const site = siteOf(source, "testWorkflow", { after: "verifier-2 times out" });
    expect(callAtSite(model, site.line, site.column)).toBe(model.calls[1]);
    expect(testAt(model, ["an exact key wins over the glob: verifier-2 times out"])).toBe(model.tests[1]);
    expect(testAt(model, ["no such test"])).toBeUndefined();
    const location = siteOf(source, "test(", { after: "verifier-2 times out" });
    expect(testAtSite(model, site.line, site.column)).toBe(model.tests[1]);
    expect(testAtSite(model, location.line + 1, 1)).toBe(model.tests[2]);
  });

  test("every entry's callee holds the name a stack trace points at", () => {
    const entries: StaticEntry[] = model.calls.flatMap((call) => call.agents!.scripts.flatMap((script) => [...script.entries, ...(script.definition?.entries ?? [])]));
    expect(new Set(entries.map((entry) => textIn(source, entry.calleeRange!)))).toEqual(new Set(["answer", "timedOut", "hang", "failed"]));
  });
});
