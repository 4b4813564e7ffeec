import { describe, expect, test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import { problemsOf } from "turnlens/trace";
import Type from "typebox";
import { askOnce, mistake, SUMMARY, thrown } from "./workflows";

const LONG = Type.Object({ title: Type.String({ minLength: 3 }), tags: Type.Array(Type.String(), { minItems: 1 }) });

describe("an answer's schema", () => {
  test("must be the turn's: text asked, a schema answered", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "say it" }), { agents: { a: answer(SUMMARY, { summary: "x" }) } }));
    expect(error.message).toBe(`agent "a" turn 1: it asks for text; its script answers SUMMARY. It was asked: say it`);
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "schema-mismatch", expectedSchema: "text", actualSchema: SUMMARY });
  });

  test("must be the turn's: a schema asked, text answered", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "sum up", schema: Type.String() }), { agents: { a: answer("x") } }));
    expect(error.message).toBe('agent "a" turn 1: it asks for a schema of a string; its script answers text. It was asked: sum up');
  });

  test("must be the turn's: another schema answered, named where an imported module exports it, with where they first differ", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "tag it", schema: LONG }), { agents: { a: answer(SUMMARY, { summary: "x" }) } }));
    expect(error.message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY: at /tags the turn's schema wants a list of strings, SUMMARY has no tags. It was asked: tag it`,
    );
    expect(problemsOf(error)?.[0]).toMatchObject({ expectedSchema: LONG, actualSchema: SUMMARY, actualName: "SUMMARY" });
    expect(problemsOf(error)?.[0]).not.toHaveProperty("expectedName");
  });

  test("is compared as JSON Schema, so the order properties were declared in doesn't matter", async () => {
    const asked = Type.Object({ a: Type.String(), b: Type.Number() });
    const given = Type.Object({ b: Type.Number(), a: Type.String() });
    const run = await testWorkflow(askOnce({ prompt: "both", schema: asked }), { agents: { a: answer(given, { a: "x", b: 1 }) } });
    expect(run.value).toEqual({ kind: "answered", value: { a: "x", b: 1 } });
  });

  test("a noAnswer takes no schema, and meets a turn with one", async () => {
    const run = await testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), { agents: { a: noAnswer.failed() } });
    expect(run.value).toEqual({ kind: "failed", reason: "harness crashed", retryable: true });
  });
});

describe("an answer the turn's schema refuses", () => {
  test("fails the test with the validator's words and path", async () => {
    const bad = { summary: 5 } as unknown as { summary: string };
    const error = await mistake(testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), { agents: { a: answer(SUMMARY, bad) } }));
    expect(error.message).toBe('agent "a" turn 1: the schema refused its script\'s answer: /summary is 5; allowed: a string');
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "answer-refused", path: "/summary", expectedSchema: SUMMARY });
  });

  test("catches what types can't, such as minItems", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "tag it", schema: LONG }), { agents: { a: answer(LONG, { title: "ok!", tags: [] }) } }));
    expect(error.message).toBe('agent "a" turn 1: the schema refused its script\'s answer: /tags has 0 items; allowed: at least 1 item');
  });

  test("a missing property is refused at the root", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "sum up", schema: SUMMARY }), { agents: { a: answer(SUMMARY, () => ({}) as never) } }));
    expect(error.message).toBe('agent "a" turn 1: the schema refused its script\'s answer: / has no "summary"; required: "summary"');
    expect(problemsOf(error)?.[0]?.path).toBe("/");
  });

  test("a function answering a text turn with no text fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "say it" }), { agents: { a: answer(() => 5 as never) } }));
    expect(error.message).toBe('agent "a" turn 1: the turn asks for text; its script answered 5');
  });

  test("an answer that is no JSON fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "count", schema: Type.Any() }), { agents: { a: answer(Type.Any(), () => 10n) } }));
    expect(error.message).toBe('agent "a" turn 1: its script\'s answer is not JSON: Do not know how to serialize a BigInt');
  });
});

describe("a script function", () => {
  test("that throws fails the test with what it threw", async () => {
    const error = await mistake(
      testWorkflow(askOnce({ prompt: "go" }), {
        agents: {
          a: answer(() => {
            throw new Error("fixture missing");
          }),
        },
      }),
    );
    expect(error.message).toBe('agent "a" turn 1: its script threw: fixture missing. It was asked: go');
    expect(problemsOf(error)?.[0]?.code).toBe("script-threw");
  });

  test("that rejects fails the test the same way", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { a: answer(async () => Promise.reject(new Error("later"))) } }));
    expect(error.message).toBe('agent "a" turn 1: its script threw: later. It was asked: go');
  });

  test("that returns nothing fails the test", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { a: answer(() => undefined as never) } }));
    expect(error.message).toBe('agent "a" turn 1: its script returned nothing. It was asked: go');
    expect(problemsOf(error)?.[0]?.code).toBe("script-returned-nothing");
  });

  test("that returns answer(…) fails the test", async () => {
    const error = await mistake(
      testWorkflow(askOnce({ prompt: "go", schema: SUMMARY }), {
        agents: { a: answer(SUMMARY, () => answer(SUMMARY, { summary: "x" }) as never) },
      }),
    );
    expect(error.message).toBe('agent "a" turn 1: its script returned answer(…); a function returns the value itself. It was asked: go');
    expect(problemsOf(error)?.[0]?.code).toBe("script-returned-entry");
  });

  test("may be async and return a noAnswer, which ends the turn that way", async () => {
    const run = await testWorkflow(askOnce({ prompt: "go", schema: SUMMARY }), {
      agents: { a: answer(SUMMARY, async () => noAnswer.blocked("needs approval")) },
    });
    expect(run.value).toEqual({ kind: "blocked", reason: "needs approval" });
  });
});

describe("a script value that isn't one", () => {
  const refused: Array<[string, unknown, string]> = [
    ["plain text", "hello", 'agents["x"] must be answer(…), noAnswer.…() or a list of them, not "hello"'],
    ["raw JSON", { summary: "x" }, 'agents["x"] must be answer(…), noAnswer.…() or a list of them, not {"summary":"x"}'],
    ["null", null, 'agents["x"] must be answer(…), noAnswer.…() or a list of them, not null'],
    ["a function", () => "x", 'agents["x"] must be answer(…), noAnswer.…() or a list of them, not a function'],
    ["a list with a stray value", [5], 'agents["x"] must be answer(…), noAnswer.…() or a list of them, not [5]'],
    ["an empty list", [], 'agents["x"] is an empty list; a list has an entry per turn'],
  ];
  for (const [what, script, message] of refused) {
    test(`is refused before the run: ${what}`, async () => {
      const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { x: script } } as never));
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]).toMatchObject({ code: what === "an empty list" ? "script-empty-list" : "script-invalid", key: "x" });
    });
  }

  test("is shown as JSON cut at 80 characters", async () => {
    const long = { summary: "x".repeat(100) };
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: { x: long } } as never));
    expect(error.message).toBe(`agents["x"] must be answer(…), noAnswer.…() or a list of them, not ${JSON.stringify(long).slice(0, 80)}…`);
  });

  test("agents that aren't a map are refused", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "go" }), { agents: 5 } as never));
    expect(error.message).toBe("agents must map a key to a script, not 5");
  });
});

describe("answer itself", () => {
  test("refuses a schema that is no object", () => {
    expect(thrown(() => answer(5 as never, 1 as never)).message).toBe("answer takes a schema and a value, or text; not 5");
  });

  test("refuses a schema without a value", () => {
    expect(thrown(() => (answer as (schema: unknown) => unknown)(SUMMARY)).message).toBe("answer(SCHEMA, value) needs the value to answer with");
  });

  test("refuses a noAnswer given as the value", () => {
    expect(thrown(() => answer(SUMMARY, noAnswer.silent() as never)).message).toBe("answer(SCHEMA, noAnswer…) answers with a value; use the noAnswer entry on its own");
  });

  test("refuses an entry given as the schema", () => {
    expect(thrown(() => answer(noAnswer.silent() as never, 1 as never)).message).toStartWith("answer takes a schema and a value, or text; not ");
  });
});

describe("answer's types", () => {
  const VERDICT = Type.Union([
    Type.Object({ kind: Type.Literal("ready"), summary: Type.String() }),
    Type.Object({ kind: Type.Literal("inconclusive"), reason: Type.String() }),
  ]);
  const summary: string = "ok";

  test("take a member of a discriminated union as a value or from a function, and refuse an unknown kind", () => {
    const entries = [
      answer(VERDICT, { kind: "ready", summary }),
      answer(VERDICT, async (turn) => (turn.nudge ? { kind: "inconclusive", reason: "nudged" } : { kind: "ready", summary })),
      // @ts-expect-error no member has kind "done"
      answer(VERDICT, { kind: "done", summary }),
      // @ts-expect-error a function may not return an unknown kind either
      answer(VERDICT, () => ({ kind: "done", summary })),
    ];
    expect(entries).toHaveLength(4);
  });
});
