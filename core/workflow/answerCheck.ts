// Judges an agent's answer the way a real run does: parse the JSON, then TypeBox's validator. A
// refusal names what was given and what is allowed (`/severity is "critical"; allowed: "none" |
// "minor" | "major"`), one wording per schema keyword, rather than the validator's own words,
// which name neither.

import type { TSchema } from "typebox";
import { Compile, type Validator } from "typebox/compile";

export type AnswerVerdict = { accepted: true; value: unknown } | { accepted: false; error: string; path?: string };

const validators = new WeakMap<object, Validator>();

function validatorFor(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

/** Checks a raw answer: JSON against `schema`, or any text when there is no schema. */
export function checkAnswer(schema: TSchema | undefined, raw: string): AnswerVerdict {
  if (schema === undefined) return { accepted: true, value: raw };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { accepted: false, error: `the answer is not JSON: ${(error as Error).message}` };
  }
  const validator = validatorFor(schema);
  if (validator.Check(value)) return { accepted: true, value };
  const errors = validator.Errors(value) as readonly SchemaError[];
  const [first] = errors;
  if (!first) return { accepted: false, error: "the answer does not fit the schema" };
  return { accepted: false, error: refusalWords(schema, value, errors), path: first.instancePath || "/" };
}

/** One of the validator's errors, as TypeBox gives it. */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: object;
  message: string;
}

const GIVEN_LIMIT = 60;

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  const json = JSON.stringify(value);
  return json.length > GIVEN_LIMIT ? `${json.slice(0, GIVEN_LIMIT)}…` : json;
}

const quotedNames = (names: readonly unknown[]) => names.map((name) => JSON.stringify(name)).join(", ");
const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The pointer's segments: `/a~1b/0` → ["a/b", "0"]. */
function segments(pointer: string): string[] {
  return pointer
    .replace(/^#/, "")
    .split("/")
    .slice(1)
    .map((part) => decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~"));
}

function at(root: unknown, pointer: string): unknown {
  let here = root;
  for (const part of segments(pointer)) {
    if (typeof here !== "object" || here === null) return undefined;
    here = (here as Record<string, unknown>)[part];
  }
  return here;
}

const TYPE_WORDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  null: "null",
  object: "an object",
  array: "a list",
};

const typeWords = (type: unknown) => (Array.isArray(type) ? type : [type]).map((name) => TYPE_WORDS[String(name)] ?? String(name)).join(" | ");

/** What one branch of a union allows, where it is a value or a kind a person can read off; undefined for a branch with more to it. */
function branchWords(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const branch = schema as Record<string, unknown>;
  if ("const" in branch) return JSON.stringify(branch.const);
  if (Array.isArray(branch.enum)) return branch.enum.map((value) => JSON.stringify(value)).join(" | ");
  const constraints = Object.keys(branch).filter((key) => !["type", "description", "title", "$id", "~kind", "default", "examples"].includes(key));
  if (branch.type !== undefined && constraints.length === 0 && !["object", "array"].includes(String(branch.type))) return typeWords(branch.type);
  return undefined;
}

/** A union whose branches each are a value or a plain kind: every one it allows, `"none" | "minor" | "major"`. */
function unionWords(schema: unknown, value: unknown, errors: readonly SchemaError[], first: SchemaError): string | undefined {
  const union = errors.find(
    (error) =>
      (error.keyword === "anyOf" || error.keyword === "oneOf") &&
      error.instancePath === first.instancePath &&
      first.schemaPath.startsWith(`${error.schemaPath}/${error.keyword}/`),
  );
  if (!union) return undefined;
  const branches = at(schema, `${union.schemaPath}/${union.keyword}`);
  if (!Array.isArray(branches)) return undefined;
  const allowed = branches.map(branchWords);
  if (allowed.some((words) => words === undefined)) return undefined;
  return `${union.instancePath || "/"} is ${shown(at(value, union.instancePath))}; allowed: ${allowed.join(" | ")}`;
}

/** The refusal of `value` by `schema`, from its validator's errors: where, what was given there, and what is allowed. */
export function refusalWords(schema: unknown, value: unknown, errors: readonly SchemaError[]): string {
  const first = errors[0]!;
  const union = unionWords(schema, value, errors, first);
  if (union) return union;
  // `additionalProperties: false` is reported first as the extra property's `false` schema, then as the object's.
  const error =
    first.keyword === "boolean" && first.schemaPath.endsWith("/additionalProperties")
      ? (errors.find((other) => other.keyword === "additionalProperties" && `${other.schemaPath}/additionalProperties` === first.schemaPath) ?? first)
      : first;
  const where = error.instancePath || "/";
  const given = at(value, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const is = `${where} is ${shown(given)}`;
  switch (error.keyword) {
    case "const":
      return `${is}; allowed: ${JSON.stringify(params.allowedValue)}`;
    case "enum":
      return `${is}; allowed: ${(params.allowedValues as unknown[]).map((allowed) => JSON.stringify(allowed)).join(" | ")}`;
    case "type":
      return `${is}; allowed: ${typeWords(params.type)}`;
    case "pattern":
      return `${is}; allowed: a string matching the pattern ${String(params.pattern)}`;
    case "format":
      return `${is}; allowed: a string in the format "${String(params.format)}"`;
    case "minimum":
      return `${is}; allowed: at least ${params.limit}`;
    case "maximum":
      return `${is}; allowed: at most ${params.limit}`;
    case "exclusiveMinimum":
      return `${is}; allowed: more than ${params.limit}`;
    case "exclusiveMaximum":
      return `${is}; allowed: less than ${params.limit}`;
    case "multipleOf":
      return `${is}; allowed: a multiple of ${params.multipleOf}`;
    case "minLength":
    case "maxLength": {
      const length = typeof given === "string" ? [...given].length : 0;
      return `${is}, ${plural(length, "character")}; allowed: ${error.keyword === "minLength" ? "at least" : "at most"} ${plural(params.limit as number, "character")}`;
    }
    case "minItems":
    case "maxItems": {
      const count = Array.isArray(given) ? given.length : 0;
      return `${where} has ${plural(count, "item")}; allowed: ${error.keyword === "minItems" ? "at least" : "at most"} ${plural(params.limit as number, "item")}`;
    }
    case "minProperties":
    case "maxProperties": {
      const count = typeof given === "object" && given !== null ? Object.keys(given).length : 0;
      return `${where} has ${plural(count, "property", "properties")}; allowed: ${error.keyword === "minProperties" ? "at least" : "at most"} ${plural(params.limit as number, "property", "properties")}`;
    }
    case "uniqueItems": {
      const [index] = (params.duplicateItems as number[] | undefined) ?? [];
      const item = Array.isArray(given) && index !== undefined ? given[index] : undefined;
      return `${where} has ${shown(item)} more than once; allowed: each item once`;
    }
    case "required": {
      const required = at(schema, `${error.schemaPath}/required`);
      const missing = params.requiredProperties as string[];
      return `${where} has no ${quotedNames(missing)}; required: ${quotedNames(Array.isArray(required) ? required : missing)}`;
    }
    case "additionalProperties": {
      const properties = at(schema, `${error.schemaPath}/properties`);
      const names = typeof properties === "object" && properties !== null ? Object.keys(properties) : [];
      return `${where} has ${quotedNames(params.additionalProperties as string[])}; allowed: ${names.length ? quotedNames(names) : "no properties"}`;
    }
    default:
      return `${where} ${error.message}`;
  }
}
