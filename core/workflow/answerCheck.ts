// Judges an agent's answer the way a real run does: parse the JSON, then TypeBox's validator.

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
  const [first] = validator.Errors(value);
  if (!first) return { accepted: false, error: "the answer does not fit the schema" };
  const path = first.instancePath || "/";
  return { accepted: false, error: `${path} ${first.message}`, path };
}
