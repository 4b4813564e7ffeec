// A schema mismatch in words: each schema by the name the source gives it (the export, `NOTE`,
// where the runner could tell), the first place in the answer where they differ (a path into the
// value, `/title`) and what each wants there (`NOTE wants a string, STEP has no title`); never the
// schemas' JSON, which the editor shows only in the peek's diff. The full schemas stay on the
// problem (`expectedSchema`, `actualSchema`) for the report's detail and that diff.

import { canonicalJson } from "../workflow/json.ts";

/** A quoted value, cut short: an enum's member, a keyword's value. */
const VALUE_LIMIT = 40;

/** Where two schemas first differ: a path into the value (`/title`, `/tags/*`, "" for the value itself), and what each side says there. */
export interface SchemaDifference {
  path: string;
  /** The turn's side, after its name: `wants a string`, `has no title`. */
  expected: string;
  /** The script's side, after its name. */
  actual: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

const isObject = (value: Json | undefined): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);
const same = (left: Json | undefined, right: Json | undefined) => JSON.stringify(left) === JSON.stringify(right);

function shown(value: Json): string {
  const json = JSON.stringify(value);
  return json.length > VALUE_LIMIT ? `${json.slice(0, VALUE_LIMIT)}…` : json;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  null: "null",
  object: "an object",
  array: "a list",
};

/** What a schema wants, in a few words: `a string`, `one of "a", "b"`, `a list of strings`. */
export function wantedInWords(schema: Json | undefined): string {
  if (schema === true || schema === undefined || (isObject(schema) && Object.keys(schema).length === 0)) return "anything";
  if (schema === false) return "nothing";
  if (!isObject(schema)) return shown(schema);
  if ("const" in schema) return `the value ${shown(schema.const!)}`;
  if (Array.isArray(schema.enum)) {
    const members = schema.enum.slice(0, 4).map(shown).join(", ");
    return `one of ${members}${schema.enum.length > 4 ? ` and ${schema.enum.length - 4} more` : ""}`;
  }
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    // A union of literals is an enum as TypeBox writes it.
    if (options.every((option) => isObject(option) && "const" in option)) return wantedInWords({ enum: options.map((option) => (option as Schema).const!) });
    return options.map(wantedInWords).join(" or ");
  }
  const type = schema.type;
  if (Array.isArray(type)) return type.map((one) => TYPE_WORDS[String(one)] ?? String(one)).join(" or ");
  if (type === "array" && isObject(schema.items)) {
    const item = wantedInWords(schema.items);
    const plural = /^an? (string|number|integer|boolean|object|list)$/.exec(item);
    return plural ? `a list of ${plural[1]}s` : `a list of items that are ${item}`;
  }
  if (typeof type === "string") return TYPE_WORDS[type] ?? type;
  if (isObject(schema.properties)) return "an object";
  return "a value";
}

/** A schema as a line of words, for the editor's related information: `an object with title (a string) and done? (a boolean)`. */
export function schemaInWords(schema: unknown): string {
  if (schema === undefined || schema === "text") return "text";
  const parsed = JSON.parse(canonicalJson(schema)) as Json;
  if (!isObject(parsed) || !isObject(parsed.properties)) return wantedInWords(parsed);
  const required = new Set(Array.isArray(parsed.required) ? parsed.required.map(String) : []);
  const names = Object.keys(parsed.properties);
  if (names.length === 0) return "an object with no properties";
  const listed = names
    .slice(0, 4)
    .map((name) => `${name}${required.has(name) ? "" : "?"} (${wantedInWords(isObject(parsed.properties) ? parsed.properties[name] : undefined)})`);
  const more = names.length > 4 ? `, and ${names.length - 4} more` : "";
  return `an object with ${listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}`}${more}`;
}

/** The kind a schema's `type`, `const`, `enum` or union gives: what differs first, before the keys inside. */
const kindOf = (schema: Schema) => JSON.stringify([schema.type, schema.const, schema.enum, schema.anyOf, schema.oneOf]);

const wants = (schema: Json | undefined) => `wants ${wantedInWords(schema)}`;

function differ(expected: Json, actual: Json, path: string): SchemaDifference | undefined {
  if (same(expected, actual)) return undefined;
  if (!isObject(expected) || !isObject(actual) || kindOf(expected) !== kindOf(actual)) return { path, expected: wants(expected), actual: wants(actual) };
  // Objects: each property the turn's schema has, in its order, then the ones only the script's has.
  const expectedProperties = isObject(expected.properties) ? expected.properties : {};
  const actualProperties = isObject(actual.properties) ? actual.properties : {};
  const requiredBy = (schema: Schema) => new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const [expectedRequired, actualRequired] = [requiredBy(expected), requiredBy(actual)];
  for (const name of Object.keys(expectedProperties)) {
    const at = `${path}/${name}`;
    if (!(name in actualProperties)) return { path: at, expected: wants(expectedProperties[name]), actual: `has no ${name}` };
    const found = differ(expectedProperties[name]!, actualProperties[name]!, at);
    if (found) return found;
    if (expectedRequired.has(name) !== actualRequired.has(name)) {
      const needs = (required: boolean) => (required ? "requires it" : "makes it optional");
      return { path: at, expected: needs(expectedRequired.has(name)), actual: needs(actualRequired.has(name)) };
    }
  }
  for (const name of Object.keys(actualProperties)) {
    if (!(name in expectedProperties)) return { path: `${path}/${name}`, expected: `has no ${name}`, actual: wants(actualProperties[name]) };
  }
  if (!same(expected.additionalProperties, actual.additionalProperties)) {
    const others = (schema: Schema) =>
      schema.additionalProperties === false
        ? "allows no other properties"
        : isObject(schema.additionalProperties)
          ? `allows other properties that are ${wantedInWords(schema.additionalProperties)}`
          : "allows other properties";
    return { path, expected: others(expected), actual: others(actual) };
  }
  if (!same(expected.items, actual.items)) {
    const found = differ(expected.items ?? true, actual.items ?? true, `${path}/*`);
    if (found) return found;
  }
  // Anything else (a length, a pattern, a description): the first keyword, in sorted order, either side sets otherwise.
  const handled = new Set(["properties", "additionalProperties", "items", "type", "const", "enum", "anyOf", "oneOf"]);
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].filter((key) => !handled.has(key)).sort();
  for (const key of keys) {
    if (same(expected[key], actual[key])) continue;
    const side = (schema: Schema) => (key in schema ? `has ${key} ${shown(schema[key]!)}` : `has no ${key}`);
    return { path, expected: side(expected), actual: side(actual) };
  }
  return undefined;
}

/** The first difference between two schemas, walking the value they describe; undefined when they are equal. */
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

/** `it asks for NOTE; its script answers STEP: at /title NOTE wants a string, STEP has no title` */
export function schemaMismatchWhy(mismatch: SchemaMismatch): string {
  const { expectedSchema, actualSchema } = mismatch;
  // Two exports of one name (two modules' SCHEMA) would read as one schema differing from itself.
  const twin = mismatch.expectedName !== undefined && mismatch.expectedName === mismatch.actualName;
  const expectedName = twin ? `the turn's ${mismatch.expectedName}` : mismatch.expectedName;
  const actualName = twin ? `the script's ${mismatch.actualName}` : mismatch.actualName;
  const alone = (schema: unknown, name: string | undefined) => (isText(schema) ? "text" : (name ?? `a schema of ${schemaInWords(schema)}`));
  if (isText(expectedSchema) || isText(actualSchema)) {
    return `it asks for ${alone(expectedSchema, expectedName)}; its script answers ${alone(actualSchema, actualName)}`;
  }
  const head = `it asks for ${expectedName ?? "a schema"}; its script answers ${actualName ?? "another"}`;
  const difference = firstSchemaDifference(expectedSchema, actualSchema);
  if (!difference) return head;
  const where = difference.path === "" ? "" : `at ${difference.path} `;
  return `${head}: ${where}${expectedName ?? "the turn's schema"} ${difference.expected}, ${actualName ?? "the script's schema"} ${difference.actual}`;
}
