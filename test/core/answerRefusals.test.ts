// A scripted answer the turn's schema refuses is refused in words that name what was given and
// what is allowed, for every keyword a schema can refuse it by (core/workflow/answerCheck.ts).

import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { problemsOf } from "turnlens/trace";
import Type, { type TSchema } from "typebox";
import { askOnce, mistake } from "./workflows";

const SEVERITY = Type.Object({ severity: Type.Union([Type.Literal("none"), Type.Literal("minor"), Type.Literal("major")]) });

// Each row: the keyword, its schema, the scripted answer, the words after "answer: ".
const rows: Array<[string, TSchema, unknown, string]> = [
  ["const, a union of literals", SEVERITY, { severity: "critical" }, `/severity is "critical"; allowed: "none" | "minor" | "major"`],
  ["const", Type.Object({ kind: Type.Literal("review") }), { kind: "plan" }, `/kind is "plan"; allowed: "review"`],
  ["enum", Type.Object({ risk: Type.Enum(["low", "high"]) }), { risk: "medium" }, `/risk is "medium"; allowed: "low" | "high"`],
  ["type", Type.Object({ count: Type.Number() }), { count: "5" }, `/count is "5"; allowed: a number`],
  ["type, a union of kinds", Type.Object({ id: Type.Union([Type.String(), Type.Integer()]) }), { id: true }, `/id is true; allowed: a string | a whole number`],
  ["type, at the root", Type.Object({ a: Type.String() }), [1], `/ is [1]; allowed: an object`],
  ["pattern", Type.Object({ ticket: Type.String({ pattern: "^T-[0-9]+$" }) }), { ticket: "t1" }, `/ticket is "t1"; allowed: a string matching the pattern ^T-[0-9]+$`],
  ["format", Type.Object({ email: Type.String({ format: "email" }) }), { email: "nobody" }, `/email is "nobody"; allowed: a string in the format "email"`],
  ["minimum", Type.Object({ score: Type.Number({ minimum: 1 }) }), { score: 0 }, `/score is 0; allowed: at least 1`],
  ["maximum", Type.Object({ score: Type.Number({ maximum: 5 }) }), { score: 9 }, `/score is 9; allowed: at most 5`],
  ["exclusiveMinimum", Type.Object({ share: Type.Number({ exclusiveMinimum: 0 }) }), { share: 0 }, `/share is 0; allowed: more than 0`],
  ["exclusiveMaximum", Type.Object({ share: Type.Number({ exclusiveMaximum: 1 }) }), { share: 1 }, `/share is 1; allowed: less than 1`],
  ["multipleOf", Type.Object({ step: Type.Number({ multipleOf: 5 }) }), { step: 7 }, `/step is 7; allowed: a multiple of 5`],
  ["minLength", Type.Object({ title: Type.String({ minLength: 3 }) }), { title: "v2" }, `/title is "v2", 2 characters; allowed: at least 3 characters`],
  ["maxLength", Type.Object({ title: Type.String({ maxLength: 4 }) }), { title: "release" }, `/title is "release", 7 characters; allowed: at most 4 characters`],
  ["minItems", Type.Object({ tags: Type.Array(Type.String(), { minItems: 2 }) }), { tags: ["a"] }, `/tags has 1 item; allowed: at least 2 items`],
  ["maxItems", Type.Object({ tags: Type.Array(Type.String(), { maxItems: 1 }) }), { tags: ["a", "b"] }, `/tags has 2 items; allowed: at most 1 item`],
  ["uniqueItems", Type.Object({ tags: Type.Array(Type.String(), { uniqueItems: true }) }), { tags: ["a", "a"] }, `/tags has "a" more than once; allowed: each item once`],
  ["minProperties", Type.Record(Type.String(), Type.String(), { minProperties: 1 }), {}, `/ has 0 properties; allowed: at least 1 property`],
  ["required", Type.Object({ summary: Type.String(), risk: Type.String() }), { risk: "low" }, `/ has no "summary"; required: "summary", "risk"`],
  ["required, nested", Type.Object({ plan: Type.Object({ steps: Type.Array(Type.String()) }) }), { plan: {} }, `/plan has no "steps"; required: "steps"`],
  ["additionalProperties", Type.Object({ summary: Type.String() }, { additionalProperties: false }), { summary: "s", sumary: "s" }, `/ has "sumary"; allowed: "summary"`],
];

describe("a scripted answer the schema refuses names what was given and what is allowed", () => {
  for (const [keyword, schema, given, words] of rows) {
    test(keyword, async () => {
      const error = await mistake(testWorkflow(askOnce({ prompt: "answer", schema }), { agents: { a: answer(schema, given as never) } }));
      expect(error.message).toBe(`agent "a" turn 1: the schema refused its script's answer: ${words}`);
    });
  }

  test("the refusal keeps the validator's path", async () => {
    const error = await mistake(testWorkflow(askOnce({ prompt: "rate", schema: SEVERITY }), { agents: { a: answer(SEVERITY, { severity: "critical" } as never) } }));
    expect(problemsOf(error)?.[0]).toMatchObject({ code: "answer-refused", path: "/severity" });
  });
});
