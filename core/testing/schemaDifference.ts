// A schema mismatch in words: each schema by the name the source gives it (the export, `NOTE`,
// where the runner could tell) and where they first differ, path and both sides, never the two
// schemas cut at a length (where they differ is usually past the cut). The full schemas stay on
// the problem (`expectedSchema`, `actualSchema`) for the report's detail and the editor.

import { canonicalJson } from "../workflow/json.ts";

const SIDE_LIMIT = 60;

/** Where two schemas first differ: a JSON pointer (`/properties/title`), and each side there. */
export interface SchemaDifference {
  path: string;
  expected: string;
  actual: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (value: Json): value is { [key: string]: Json } => typeof value === "object" && value !== null && !Array.isArray(value);
const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

function shown(value: Json): string {
  const json = JSON.stringify(value);
  return json.length > SIDE_LIMIT ? `${json.slice(0, SIDE_LIMIT)}…` : json;
}

/** An object by its keys alone, `{"title":…}`: what differs where two objects hold other keys. */
function keysOf(value: { [key: string]: Json }): string {
  const keys = Object.keys(value);
  return keys.length === 0 ? "{}" : `{${keys.map((key) => `${JSON.stringify(key)}:…`).join(",")}}`;
}

/** Shared keys are compared first (so `type` "string" vs "object" shows before the keys around it), then the key sets. */
function differ(expected: Json, actual: Json, path: string): SchemaDifference | undefined {
  if (JSON.stringify(expected) === JSON.stringify(actual)) return undefined;
  if (isObject(expected) && isObject(actual)) {
    const shared = Object.keys(expected)
      .filter((key) => key in actual)
      .sort();
    for (const key of shared) {
      const found = differ(expected[key]!, actual[key]!, `${path}/${escape(key)}`);
      if (found) return found;
    }
    return { path: path || "/", expected: keysOf(expected), actual: keysOf(actual) };
  }
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    for (let index = 0; index < expected.length; index++) {
      const found = differ(expected[index]!, actual[index]!, `${path}/${index}`);
      if (found) return found;
    }
  }
  return { path: path || "/", expected: shown(expected), actual: shown(actual) };
}

/** The first difference between two schemas, in canonical (sorted-key) order; undefined when they are equal. */
export function firstSchemaDifference(expected: unknown, actual: unknown): SchemaDifference | undefined {
  const parse = (schema: unknown) => JSON.parse(canonicalJson(schema ?? null)) as Json;
  return differ(parse(expected), parse(actual), "");
}

export interface SchemaMismatch {
  /** The turn's schema, or "text" for a text turn. */
  expectedSchema?: unknown;
  /** The script's schema, or "text" for a text answer. */
  actualSchema?: unknown;
  /** The turn's schema as the source names it (the workflow's export), where known. */
  expectedName?: string;
  /** The script's schema as the source names it, where known. */
  actualName?: string;
}

const isText = (schema: unknown) => schema === undefined || schema === "text";

/** `it asks for NOTE; its script answers STEP; they differ at /properties: NOTE has {"title":…}, STEP has {"done":…}` */
export function schemaMismatchWhy(mismatch: SchemaMismatch): string {
  const { expectedSchema, actualSchema } = mismatch;
  // Two exports of one name (two modules' SCHEMA) would read as one schema differing from itself.
  const same = mismatch.expectedName !== undefined && mismatch.expectedName === mismatch.actualName;
  const expectedName = same ? `the turn's ${mismatch.expectedName}` : mismatch.expectedName;
  const actualName = same ? `the script's ${mismatch.actualName}` : mismatch.actualName;
  const alone = (schema: unknown, name: string | undefined) => (isText(schema) ? "text" : (name ?? `the schema ${shown(JSON.parse(canonicalJson(schema)) as Json)}`));
  if (isText(expectedSchema) || isText(actualSchema)) {
    return `it asks for ${alone(expectedSchema, expectedName)}; its script answers ${alone(actualSchema, actualName)}`;
  }
  const difference = firstSchemaDifference(expectedSchema, actualSchema);
  const asked = expectedName ?? "a schema";
  const answered = actualName ?? "another";
  const head = `it asks for ${asked}; its script answers ${answered}`;
  if (!difference) return head;
  return `${head}; they differ at ${difference.path}: ${expectedName ?? "the turn's"} has ${difference.expected}, ${actualName ?? "the script's"} has ${difference.actual}`;
}
