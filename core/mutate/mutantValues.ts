// The other value `--mutate` answers with: every leaf of the answer changed (strings emptied or
// filled, numbers moved, booleans flipped, arrays emptied or extended, another enum member), kept
// only where the turn's schema (its JSON, as the trace carries it) still accepts the whole value.
// Deterministic: the same answer and schema give the same mutant, in the CLI and the editor alike.

import { Compile, type Validator } from "typebox/compile";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

const validators = new Map<string, Validator | null>();

function validatorFor(schema: unknown): Validator | undefined {
  const key = JSON.stringify(schema);
  if (!validators.has(key)) {
    let made: Validator | null = null;
    try {
      made = Compile(schema as never);
    } catch {
      made = null;
    }
    validators.set(key, made);
  }
  return validators.get(key) ?? undefined;
}

/**
 * Another value `schema` accepts, differing from `value`; undefined when the schema leaves no other
 * (a literal, `null`) or cannot be read. A text turn (no schema) gets `""`, or `"x"` for an empty text.
 */
export function mutantValue(value: unknown, schema: unknown): unknown {
  if (schema === undefined || schema === "text") return typeof value === "string" && value !== "" ? "" : "x";
  const validator = validatorFor(schema);
  if (!validator) return undefined;
  const accepts = (candidate: unknown) => {
    try {
      return validator.Check(candidate);
    } catch {
      return false;
    }
  };
  let current = value as Json;
  // Leaf by leaf, each change kept only if the whole value still fits (a leaf's own schema may be
  // behind a $ref or a union the walk does not follow exactly).
  for (const path of leafPaths(current, schema as Schema)) {
    for (const candidate of candidatesAt(current, path.at, path.schema)) {
      const next = setAt(current, path.at, candidate);
      if (accepts(next)) {
        current = next;
        break;
      }
    }
  }
  return canonical(current) === canonical(value) ? undefined : current;
}

interface LeafPath {
  at: (string | number)[];
  schema: Schema | undefined;
}

/** The value's leaves (and its arrays, which may be emptied or extended), deepest first for arrays. */
function leafPaths(value: Json, schema: Schema | undefined, at: (string | number)[] = []): LeafPath[] {
  if (Array.isArray(value)) {
    const items = schema && typeof schema.items === "object" ? (schema.items as Schema) : undefined;
    return [...value.flatMap((item, index) => leafPaths(item, items, [...at, index])), { at, schema }];
  }
  if (value !== null && typeof value === "object") {
    const properties = (schema?.properties ?? {}) as Record<string, Schema>;
    return Object.keys(value).flatMap((key) => leafPaths(value[key]!, properties[key], [...at, key]));
  }
  return [{ at, schema }];
}

/** The changes tried at one place, in order; the first the schema accepts is kept. */
function candidatesAt(root: Json, at: (string | number)[], schema: Schema | undefined): Json[] {
  const value = getAt(root, at);
  const members = enumMembers(schema);
  if (members.length > 0) {
    const index = members.findIndex((member) => canonical(member) === canonical(value));
    // The next member after it, round the list.
    return [...members.slice(index + 1), ...members.slice(0, Math.max(index, 0))].filter((member) => canonical(member) !== canonical(value));
  }
  if (typeof value === "boolean") return [!value];
  if (typeof value === "number") {
    const minimum = typeof schema?.minimum === "number" ? schema.minimum : undefined;
    const maximum = typeof schema?.maximum === "number" ? schema.maximum : undefined;
    const list = [value === 0 ? 1 : 0, value + 1, value - 1, minimum, maximum, value * 2];
    return list.filter((candidate): candidate is number => typeof candidate === "number" && candidate !== value);
  }
  if (typeof value === "string") {
    const minLength = typeof schema?.minLength === "number" ? schema.minLength : 0;
    const filled = "x".repeat(Math.max(minLength, 1));
    return [value === "" ? "x" : "", filled, "y".repeat(Math.max(minLength, 1)), `${value}x`, value.slice(0, -1)].filter((candidate) => candidate !== value);
  }
  if (Array.isArray(value)) {
    const items = schema && typeof schema.items === "object" ? (schema.items as Schema) : undefined;
    const added = value.length > 0 ? value[value.length - 1]! : sampleOf(items);
    const extended = added === undefined ? [] : [[...value, added]];
    return [[], value.slice(0, -1), ...extended].filter((candidate) => canonical(candidate) !== canonical(value));
  }
  return [];
}

/** A plain value of `schema`, to extend an empty array with: its smallest of each kind. */
function sampleOf(schema: Schema | undefined, depth = 0): Json | undefined {
  if (!schema || depth > 8) return undefined;
  const members = enumMembers(schema);
  if (members.length > 0) return members[0];
  switch (schema.type) {
    case "string":
      return "x".repeat(Math.max(typeof schema.minLength === "number" ? schema.minLength : 0, 1));
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const item = sampleOf(schema.items as Schema | undefined, depth + 1);
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      return item === undefined && count > 0 ? undefined : Array.from({ length: count }, () => item!);
    }
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const record: Record<string, Json> = {};
      for (const key of (schema.required ?? []) as string[]) {
        const field = sampleOf(properties[key], depth + 1);
        if (field === undefined) return undefined;
        record[key] = field;
      }
      return record;
    }
    default:
      return undefined;
  }
}

/** The members of an enum, a union of literals, or a literal's own value. */
function enumMembers(schema: Schema | undefined): Json[] {
  if (!schema) return [];
  if (Array.isArray(schema.enum)) return schema.enum as Json[];
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(union) && union.length > 0 && union.every((member) => "const" in member)) return union.map((member) => member.const as Json);
  if ("const" in schema) return [schema.const as Json];
  return [];
}

function getAt(root: Json, at: (string | number)[]): Json {
  let value: Json = root;
  for (const step of at) value = (value as Record<string | number, Json>)[step]!;
  return value;
}

function setAt(root: Json, at: (string | number)[], leaf: Json): Json {
  if (at.length === 0) return leaf;
  const [step, ...rest] = at;
  if (Array.isArray(root)) return root.map((item, index) => (index === step ? setAt(item, rest, leaf) : item));
  const record = root as Record<string, Json>;
  return { ...record, [step!]: setAt(record[step!]!, rest, leaf) };
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item) =>
    item && typeof item === "object" && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1))) : item,
  );
}

/** A value as a test writes it, `{summary: ""}`, cut near `max` characters. */
export function writtenValue(value: unknown, max = 60): string {
  const text = written(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function written(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(written).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([key, item]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${written(item)}`);
    return `{${fields.join(", ")}}`;
  }
  return JSON.stringify(value) ?? String(value);
}
