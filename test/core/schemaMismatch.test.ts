// A schema mismatch says which schemas and where they differ: each named as the source exports it
// (the runner finds the exports of the modules the test file imports), the first difference by
// path with both sides, and the full schemas on the problem for the report's detail and the editor.

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
  test("names both schemas as the imported module exports them, and shows where they first differ", async () => {
    const { message, problem } = await mismatch(VERDICT, SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for VERDICT; its script answers SUMMARY; they differ at /properties: VERDICT has {"note":…,"ok":…}, SUMMARY has {"summary":…}. It was asked: Check it.`,
    );
    expect(problem).toMatchObject({ code: "schema-mismatch", expectedSchema: VERDICT, actualSchema: SUMMARY, expectedName: "VERDICT", actualName: "SUMMARY" });
  });

  test("names the script's schema as the test file declares it, where no imported module exports it", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "Title it.", schema: SUMMARY }), { agents: { a: answer(TITLE, { title: "v2" }) } }));
    expect(error.message).toBe(
      `agent "a" turn 1: it asks for SUMMARY; its script answers TITLE; they differ at /properties: SUMMARY has {"summary":…}, TITLE has {"title":…}. It was asked: Title it.`,
    );
    expect(problemsOf(error)?.[0]).toMatchObject({ expectedName: "SUMMARY", actualName: "TITLE" });
  });

  test("compares shared keys first, so a differing type shows before the keys around it", async () => {
    const { message } = await mismatch(Type.String(), SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY; they differ at /type: the turn's has "string", SUMMARY has "object". It was asked: Check it.`,
    );
  });

  test("goes down to the leaf that differs, by its JSON pointer, with both values", async () => {
    const asked = Type.Object({ title: Type.String({ minLength: 3 }) });
    const given = Type.Object({ title: Type.String({ minLength: 5 }) });
    const { message, problem } = await mismatch(asked, given, { title: "hello" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers another; they differ at /properties/title/minLength: the turn's has 3, the script's has 5. It was asked: Check it.`,
    );
    expect(problem).toMatchObject({ expectedSchema: asked, actualSchema: given });
    expect(problem).not.toHaveProperty("expectedName");
    expect(problem).not.toHaveProperty("actualName");
  });

  test("shows a property one side lacks as the keys each side has there", async () => {
    const asked = Type.Object({ summary: Type.String(), tags: Type.Optional(Type.Array(Type.String())) });
    const { message } = await mismatch(asked, SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY; they differ at /properties: the turn's has {"summary":…,"tags":…}, SUMMARY has {"summary":…}. It was asked: Check it.`,
    );
  });

  test("cuts a long side, never the path", async () => {
    const asked = Type.Object({ summary: Type.String({ description: "d".repeat(100) }) });
    const { message } = await mismatch(asked, SUMMARY, { summary: "x" });
    expect(message).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers SUMMARY; they differ at /properties/summary: the turn's has {"description":…,"type":…}, SUMMARY has {"type":…}. It was asked: Check it.`,
    );
    const { message: leaf } = await mismatch(Type.Literal("d".repeat(100)), Type.Literal("e"), "e");
    expect(leaf).toBe(
      `agent "a" turn 1: it asks for a schema; its script answers another; they differ at /const: the turn's has "${"d".repeat(59)}…, the script's has "e". It was asked: Check it.`,
    );
  });
});
