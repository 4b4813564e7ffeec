// The smallest value a schema accepts, kept close to what a test wrote (core/testing/validAnswer.ts),
// over TypeBox schemas as the editor gets them: plain JSON, the TypeBox kinds lost on the wire.

import { describe, expect, test } from "bun:test";
import Type from "typebox";
import { Value } from "typebox/value";
import { validAnswer } from "../../core/testing/validAnswer.ts";

/** A schema as it reaches the server in a run's trace. */
const wire = (schema: unknown) => JSON.parse(JSON.stringify(schema));

describe("validAnswer", () => {
  test("a plain object gets its required properties, each the smallest of its type", () => {
    const schema = wire(
      Type.Object({ title: Type.String(), count: Type.Integer(), done: Type.Boolean(), tags: Type.Array(Type.String()), note: Type.Optional(Type.String()) }),
    );
    expect(validAnswer(schema)).toEqual({ value: { title: "", count: 0, done: false, tags: [] }, unmet: [] });
  });

  test("minLength, minimum, exclusiveMaximum, multipleOf and minItems are honoured", () => {
    const schema = wire(
      Type.Object({
        title: Type.String({ minLength: 3 }),
        score: Type.Number({ minimum: 2, multipleOf: 0.5 }),
        rank: Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 10 }),
        steps: Type.Array(Type.Object({ name: Type.String({ minLength: 1 }) }), { minItems: 2 }),
      }),
    );
    const { value, unmet } = validAnswer(schema);
    expect(value).toEqual({ title: "xxx", score: 2, rank: 1, steps: [{ name: "x" }, { name: "x" }] });
    expect(unmet).toEqual([]);
  });

  test("an enum or a union of literals gives its first value, a format its example, a pattern a matching string", () => {
    const schema = wire(
      Type.Object({
        verdict: Type.Union([Type.Literal("approve"), Type.Literal("reject")]),
        level: Type.Enum(["low", "high"]),
        email: Type.String({ format: "email" }),
        when: Type.String({ format: "date-time" }),
        ticket: Type.String({ pattern: "^[A-Z]{3}-\\d{2,}$" }),
      }),
    );
    const { value, unmet } = validAnswer(schema);
    expect(value).toEqual({ verdict: "approve", level: "low", email: "user@example.com", when: "2026-01-01T00:00:00Z", ticket: "AAA-00" });
    expect(unmet).toEqual([]);
    expect(Value.Check(schema, value)).toBe(true);
  });

  test("what the test wrote stays where it was valid; a too-short string is padded, a number brought into range", () => {
    const schema = wire(Type.Object({ title: Type.String({ minLength: 3 }), body: Type.String(), count: Type.Integer({ maximum: 5 }) }));
    expect(validAnswer(schema, { title: "v2", body: "kept", count: 9 })).toEqual({ value: { title: "v2x", body: "kept", count: 5 }, unmet: [] });
  });

  test("a value the schema accepts is given back as it is", () => {
    const schema = wire(Type.Object({ title: Type.String({ minLength: 3 }) }));
    const written = { title: "Release 2" };
    expect(validAnswer(schema, written).value).toBe(written);
  });

  test("a discriminated union keeps the branch the written kind names", () => {
    const schema = wire(
      Type.Union([
        Type.Object({ kind: Type.Literal("done"), summary: Type.String() }),
        Type.Object({ kind: Type.Literal("blocked"), reason: Type.String({ minLength: 2 }) }),
      ]),
    );
    expect(validAnswer(schema, { kind: "blocked" })).toEqual({ value: { kind: "blocked", reason: "xx" }, unmet: [] });
  });

  test("a property the schema does not take is dropped when it takes no others", () => {
    const schema = wire(Type.Object({ title: Type.String() }, { additionalProperties: false }));
    expect(validAnswer(schema, { title: "a", extra: 1 })).toEqual({ value: { title: "a" }, unmet: [] });
  });

  test("a pattern no string can match is named in unmet", () => {
    const schema = wire(Type.Object({ code: Type.String({ pattern: "^a(?!b)b$" }) }));
    expect(validAnswer(schema)).toEqual({ value: { code: "" }, unmet: ["/code must match the pattern ^a(?!b)b$, and no string here does"] });
  });

  test("a TypeBox schema with its kinds is built by Value.Create", () => {
    const schema = Type.Object({ title: Type.String({ default: "Untitled" }), n: Type.Number() });
    expect(validAnswer(schema)).toEqual({ value: { title: "Untitled", n: 0 }, unmet: [] });
  });

  test("a recursive schema follows its $ref", () => {
    const schema = wire(Type.Cyclic({ Node: Type.Object({ name: Type.String({ minLength: 1 }), children: Type.Array(Type.Ref("Node")) }) }, "Node"));
    const { value, unmet } = validAnswer(schema);
    expect(value).toEqual({ name: "x", children: [] });
    expect(unmet).toEqual([]);
  });

  test("no schema at all is said so", () => {
    expect(validAnswer("text")).toEqual({ value: null, unmet: ["the schema is not a JSON schema object"] });
  });
});
