// A schema mismatch says in words which schemas and where they differ: each named as the source
// exports it (the runner finds the exports of the modules the test file imports), the first place
// in the answer where they differ and what each wants there, never JSON; the full schemas stay on
// the problem for the report's detail and the editor's diff.

import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { problemsOf } from "turnlens/trace";
import Type, { type TSchema } from "typebox";
import { askOnce, mistake, SUMMARY, VERDICT } from "./workflows";

/** The test file's own schema, which no module it imports exports. */
const TITLE = Type.Object({ title: Type.String() });

async function mismatch(asked: TSchema, answered: TSchema, value: unknown) {
  const error = await mistake(testWorkflow(askOnce({ prompt: "Check it.", schema: asked as never }), { agents: { a: answer(answered as never, value as never) } }));
  return { message: error.message, problem: problemsOf(error)?.[0] };
}

describe("a schema mismatch", () => {
  test("names both schemas as the imported module exports them, and says where in the answer they first differ and what each wants there", async () => {
    const { message, problem } = await mismatch(VERDICT, SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for VERDICT; its script answers SUMMARY: at /note VERDICT wants a string, SUMMARY has no note. It was asked: Check it.`,
    );
    expect(problem).toMatchObject({ code: "schema-mismatch", expectedSchema: VERDICT, actualSchema: SUMMARY, expectedName: "VERDICT", actualName: "SUMMARY" });
  });

  test("names the script's schema as the test file declares it, where no imported module exports it", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "Title it.", schema: SUMMARY }), { agents: { a: answer(TITLE, { title: "v2" }) } }));
    expect(error.message).toBe(
      `agent "a" turn 1: it asks for SUMMARY; its script answers TITLE: at /summary SUMMARY wants a string, TITLE has no summary. It was asked: Title it.`,
    );
    expect(problemsOf(error)?.[0]).toMatchObject({ expectedName: "SUMMARY", actualName: "TITLE" });
  });

  test("compares what each wants first, so a different kind of value shows before the keys inside it", async () => {
    const { message } = await mismatch(Type.String(), SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY: the turn's schema wants a string, SUMMARY wants an object. It was asked: Check it.`,
    );
  });

  test("goes down to the property that differs, by its path in the answer, with the keyword each side sets", async () => {
    const asked = Type.Object({ title: Type.String({ minLength: 3 }) });
    const given = Type.Object({ title: Type.String({ minLength: 5 }) });
    const { message, problem } = await mismatch(asked, given, { title: "hello" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers another: at /title the turn's schema has minLength 3, the script's schema has minLength 5. It was asked: Check it.`,
    );
    expect(problem).toMatchObject({ expectedSchema: asked, actualSchema: given });
    expect(problem).not.toHaveProperty("expectedName");
    expect(problem).not.toHaveProperty("actualName");
  });

  test("names a property one side lacks, and what the other wants there", async () => {
    const asked = Type.Object({ summary: Type.String(), tags: Type.Optional(Type.Array(Type.String())) });
    const { message } = await mismatch(asked, SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY: at /tags the turn's schema wants a list of strings, SUMMARY has no tags. It was asked: Check it.`,
    );
    const { message: extra } = await mismatch(SUMMARY, asked, { summary: "x" });
    expect(extra).toBe(
      `agent "a" turn 1: it asks for SUMMARY; its script answers another: at /tags SUMMARY has no tags, the script's schema wants a list of strings. It was asked: Check it.`,
    );
  });

  test("goes into nested objects and lists, and says which side requires a property the other makes optional", async () => {
    const asked = Type.Object({ review: Type.Object({ lines: Type.Array(Type.Object({ ok: Type.Boolean() })) }) });
    const given = Type.Object({ review: Type.Object({ lines: Type.Array(Type.Object({ ok: Type.Number() })) }) });
    expect((await mismatch(asked, given, { review: { lines: [{ ok: 1 }] } })).message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers another: at /review/lines/*/ok the turn's schema wants a boolean, the script's schema wants a number. It was asked: Check it.`,
    );
    const optional = Type.Object({ summary: Type.Optional(Type.String()) });
    expect((await mismatch(SUMMARY, optional, { summary: "x" })).message).toBe(
      `agent "a" turn 1: it asks for SUMMARY; its script answers another: at /summary SUMMARY requires it, the script's schema makes it optional. It was asked: Check it.`,
    );
  });

  test("says an enum's members and a const's value in words, cut short", async () => {
    const { message } = await mismatch(Type.Union([Type.Literal("yes"), Type.Literal("no")]), Type.Literal("d".repeat(100)), "d".repeat(100));
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers another: the turn's schema wants one of "yes", "no", the script's schema wants the value "${"d".repeat(39)}…. It was asked: Check it.`,
    );
  });

  test("cuts a long keyword's value, never the path", async () => {
    const asked = Type.Object({ summary: Type.String({ description: "d".repeat(100) }) });
    const { message } = await mismatch(asked, SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY: at /summary the turn's schema has description "${"d".repeat(39)}…, SUMMARY has no description. It was asked: Check it.`,
    );
  });

  test("a text turn answered with an unnamed schema says that schema in words, not JSON", async () => {
    const { message } = await mismatch(Type.Object({ title: Type.String(), done: Type.Optional(Type.Boolean()) }), SUMMARY, { summary: "x" });
    expect(message).not.toContain("{");
    const error = await mistake(
      testWorkflow(askOnce({ prompt: "Say it." }), {
        agents: { a: answer(Type.Object({ title: Type.String(), done: Type.Optional(Type.Boolean()) }) as never, { title: "x" } as never) },
      }),
    );
    expect(error.message).toBe(
      `agent "a" turn 1: it asks for text; its script answers a schema of an object with done? (a boolean) and title (a string). It was asked: Say it.`,
    );
  });
});
