// What `--mutate` changes (core/mutate/mutantValues.ts, mutate.ts): another value each schema
// accepts, the mutants of each entry a passed test met, and the sentence an unnoticed one gets.
import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { traceOfRun } from "turnlens/trace";
import Type from "typebox";
import { mutantValue, writtenValue } from "../../core/mutate/mutantValues.ts";
import { listMutants, uncheckedSentence } from "../../core/mutate/mutate.ts";
import { askOnce, SUMMARY } from "./workflows";

const json = (schema: unknown) => JSON.parse(JSON.stringify(schema));

describe("another value the schema accepts", () => {
  test("strings are emptied, numbers moved, booleans flipped, each leaf of an object", () => {
    const schema = json(Type.Object({ summary: Type.String(), count: Type.Number(), done: Type.Boolean() }));
    expect(mutantValue({ summary: "Two sentences.", count: 3, done: true }, schema)).toEqual({ summary: "", count: 0, done: false });
  });

  test("constraints are kept: minLength, minimum, integer, minItems", () => {
    const schema = json(Type.Object({ title: Type.String({ minLength: 3 }), words: Type.Integer({ minimum: 1 }), tags: Type.Array(Type.String(), { minItems: 1 }) }));
    expect(mutantValue({ title: "abc", words: 1, tags: ["a", "b"] }, schema)).toEqual({ title: "xxx", words: 2, tags: [""] });
  });

  test("a union of literals takes its next member, round the list", () => {
    const schema = json(Type.Object({ kind: Type.Union([Type.Literal("bug"), Type.Literal("feature"), Type.Literal("chore")]) }));
    expect(mutantValue({ kind: "feature" }, schema)).toEqual({ kind: "chore" });
    expect(mutantValue({ kind: "chore" }, schema)).toEqual({ kind: "bug" });
  });

  test("an empty array is extended with an item of its schema", () => {
    const schema = json(Type.Object({ steps: Type.Array(Type.Object({ name: Type.String(), n: Type.Integer({ minimum: 2 }) })) }));
    expect(mutantValue({ steps: [] }, schema)).toEqual({ steps: [{ name: "x", n: 2 }] });
  });

  test("a text answer is emptied, an empty one filled; a literal has no other value", () => {
    expect(mutantValue("Looks good.", undefined)).toBe("");
    expect(mutantValue("", undefined)).toBe("x");
    expect(mutantValue({ ok: true }, json(Type.Object({ ok: Type.Literal(true) })))).toBeUndefined();
  });

  test("values are written as a test writes them, cut at 60 characters", () => {
    expect(writtenValue({ summary: "", "two words": [1, null] })).toBe('{summary: "", "two words": [1, null]}');
    expect(writtenValue({ text: "y".repeat(80) })).toBe(`{text: "${"y".repeat(51)}…`);
  });
});

describe("the mutants of a passed test", () => {
  test("an answer gets another value and a failure; a list's entry is also dropped; a noAnswer becomes another", async () => {
    const run = await testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), {
      agents: { a: answer(SUMMARY, { summary: "Short." }) },
    });
    const silent = await testWorkflow(askOnce({ prompt: "say it" }), { agents: { a: [noAnswer.silent()] } }).catch(() => undefined);
    const trace = { ...traceOfRun(run)!, call: 1 };
    const report = { file: "/x.test.ts", durationMs: 1, tests: [{ id: "t", name: "t", path: ["t"], status: "passed" as const, durationMs: 1, runs: [trace] }] };
    const mutants = listMutants(report);
    expect(mutants.map((mutant) => [mutant.agent, mutant.index, mutant.change, mutant.summary])).toEqual([
      ["a", null, { kind: "value", value: { summary: "" } }, 'changed to {summary: ""}'],
      ["a", null, { kind: "no-answer", noAnswer: "failed" }, "changed to noAnswer.failed()"],
    ]);
    expect(uncheckedSentence(mutants[0]!)).toBe('no assertion of this test depends on a\'s answer (changed to {summary: ""}, the test still passed)');
    expect(silent).toBeDefined();
    const list = { ...traceOfRun(silent!)!, call: 2 };
    const listed = listMutants({ ...report, tests: [{ ...report.tests[0]!, runs: [list] }] });
    expect(listed.map((mutant) => [mutant.call, mutant.index, mutant.summary])).toEqual([[2, 0, "changed to noAnswer.failed()"]]);
  });

  test("failed tests and runs without a call number give no mutants", async () => {
    const run = await testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), { agents: { a: answer(SUMMARY, { summary: "Short." }) } });
    const trace = traceOfRun(run)!;
    const test = { id: "t", name: "t", path: ["t"], durationMs: 1 };
    expect(listMutants({ file: "/x.test.ts", durationMs: 1, tests: [{ ...test, status: "failed", runs: [{ ...trace, call: 1 }] }] })).toEqual([]);
    expect(listMutants({ file: "/x.test.ts", durationMs: 1, tests: [{ ...test, status: "passed", runs: [trace] }] })).toEqual([]);
  });
});
