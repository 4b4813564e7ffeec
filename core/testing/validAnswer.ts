// The smallest value a JSON schema accepts, built around what a test already wrote: the editor's
// "Fill with a valid answer" fix and the skeletons of its "add an entry" fixes. Pure: schema and
// value in, value and the constraints it could not meet out (`Value.Check` has the last word).
import RandExp from "randexp";
import { Value } from "typebox/value";

export interface ValidAnswer {
  value: unknown;
  /** Each constraint the value does not meet, in words (`/code must match the pattern ^(?=…)…`); empty when the schema accepts it. */
  unmet: string[];
}

type Schema = Record<string, unknown>;

/** A format's smallest plausible value; one TypeBox checks (typebox/format) and JSON Schema names. */
const FORMAT_VALUES: Record<string, string> = {
  date: "2026-01-01",
  "date-time": "2026-01-01T00:00:00Z",
  time: "00:00:00Z",
  duration: "P1D",
  email: "user@example.com",
  "idn-email": "user@example.com",
  hostname: "example.com",
  "idn-hostname": "example.com",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  uri: "https://example.com",
  "uri-reference": "https://example.com",
  iri: "https://example.com",
  "iri-reference": "https://example.com",
  url: "https://example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  "json-pointer": "/a",
  "relative-json-pointer": "0",
  regex: ".*",
  "uri-template": "https://example.com/{id}",
};

/**
 * A value `schema` accepts: `written` where the schema already accepts it, else the smallest value
 * that keeps what `written` holds that is valid (its accepted properties and items, a too-short
 * string padded, a number brought into range). `Value.Create`'s value when nothing is written and
 * it passes; defaults honoured. `unmet` names what no value here could satisfy.
 */
export function validAnswer(schema: unknown, written?: unknown): ValidAnswer {
  const unmet: string[] = [];
  if (!isSchema(schema)) return { value: written ?? null, unmet: ["the schema is not a JSON schema object"] };
  let value: unknown;
  const created = written === undefined ? createdByTypeBox(schema) : undefined;
  if (created !== undefined) value = created.value;
  else value = new Builder(schema, unmet).build(schema, written, "");
  if (unmet.length === 0 && !accepts(schema, value)) unmet.push(...errorsOf(schema, value));
  return { value, unmet: [...new Set(unmet)] };
}

/** TypeBox's own value, for a TypeBox schema it can build without defaults (it refuses a pattern or format). */
function createdByTypeBox(schema: Schema): { value: unknown } | undefined {
  try {
    const value = Value.Create(schema as never);
    return value !== undefined && accepts(schema, value) ? { value } : undefined;
  } catch {
    return undefined;
  }
}

function accepts(schema: unknown, value: unknown): boolean {
  try {
    return Value.Check(schema as never, value);
  } catch {
    return false;
  }
}

function errorsOf(schema: Schema, value: unknown): string[] {
  try {
    return [...Value.Errors(schema as never, value)].slice(0, 5).map((error) => `${error.instancePath || "the value"} ${error.message}`);
  } catch (error) {
    return [`the schema cannot be checked: ${error instanceof Error ? error.message : String(error)}`];
  }
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Builder {
  private depth = 0;
  constructor(
    private readonly root: Schema,
    private readonly unmet: string[],
  ) {}

  build(schema: Schema, written: unknown, path: string): unknown {
    if (written !== undefined && accepts(schema, written) && !this.hasRef(schema)) return written;
    if (this.depth > 40) {
      this.unmet.push(`${path || "the value"} nests deeper than 40 levels`);
      return null;
    }
    this.depth++;
    try {
      return this.buildUnchecked(schema, written, path);
    } finally {
      this.depth--;
    }
  }

  /** Whether the schema refers elsewhere: `Value.Check` of a fragment cannot follow a `$ref` to the root's `$defs`. */
  private hasRef(schema: Schema): boolean {
    return schema !== this.root && JSON.stringify(schema).includes('"$ref"');
  }

  private buildUnchecked(schema: Schema, written: unknown, path: string): unknown {
    if (typeof schema.$ref === "string") {
      const target = this.resolve(schema.$ref);
      if (target) return this.build(target, written, path);
      this.unmet.push(`${path || "the value"} refers to ${schema.$ref}, which the schema does not define`);
      return written ?? null;
    }
    if ("const" in schema) return schema.const;
    if (Array.isArray(schema.enum)) return schema.enum.some((option) => sameJson(option, written)) ? written : schema.enum[0];
    if (schema.default !== undefined && written === undefined && accepts(schema, schema.default)) return schema.default;
    const union = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined)?.filter(isSchema);
    if (union && union.length > 0) return this.build(this.branchFor(union, written), written, path);
    if (Array.isArray(schema.allOf)) return this.buildAll(schema.allOf.filter(isSchema), written, path);
    const type = this.typeOf(schema, written);
    switch (type) {
      case "object":
        return this.buildObject(schema, written, path);
      case "array":
        return this.buildArray(schema, written, path);
      case "string":
        return this.buildString(schema, written, path);
      case "number":
      case "integer":
        return this.buildNumber(schema, written, type === "integer");
      case "boolean":
        return typeof written === "boolean" ? written : false;
      case "null":
        return null;
      default:
        // Unknown/Any: anything goes, so what was written stays.
        return written === undefined ? null : written;
    }
  }

  private resolve(ref: string): Schema | undefined {
    if (!ref.startsWith("#")) return this.findById(this.root, ref);
    let node: unknown = this.root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      if (!isRecord(node)) return undefined;
      node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return isSchema(node) ? node : undefined;
  }

  /** TypeBox's `Type.Ref("Node")` names a schema of `$defs` by its `$id`. */
  private findById(node: unknown, id: string): Schema | undefined {
    if (!isRecord(node)) return undefined;
    const defs = node.$defs ?? node.definitions;
    if (isRecord(defs)) {
      if (isSchema(defs[id])) return defs[id] as Schema;
      for (const candidate of Object.values(defs)) if (isSchema(candidate) && candidate.$id === id) return candidate;
    }
    return node.$id === id ? (node as Schema) : undefined;
  }

  /** The branch of a union the written value comes closest to: one it passes, else the one whose literal properties it matches. */
  private branchFor(branches: Schema[], written: unknown): Schema {
    const passing = branches.find((branch) => accepts(branch, written));
    if (passing) return passing;
    if (isRecord(written)) {
      let best = branches[0]!;
      let bestScore = -1;
      for (const branch of branches) {
        const properties = isRecord(branch.properties) ? branch.properties : {};
        let score = 0;
        for (const [key, property] of Object.entries(properties)) {
          if (!(key in written)) continue;
          score += 1;
          if (isSchema(property) && "const" in property) score += sameJson(property.const, written[key]) ? 10 : -10;
        }
        if (branch.type === "object" && score > bestScore) {
          best = branch;
          bestScore = score;
        }
      }
      return best;
    }
    const byType = branches.find((branch) => branch.type === jsonType(written));
    // Prefer a branch that is not `null`: a test fills a value to answer with.
    return byType ?? branches.find((branch) => branch.type !== "null") ?? branches[0]!;
  }

  private buildAll(parts: Schema[], written: unknown, path: string): unknown {
    let value = written;
    for (const part of parts) {
      const built = this.build(part, value, path);
      value = isRecord(value) && isRecord(built) ? { ...value, ...built } : built;
    }
    return value;
  }

  private typeOf(schema: Schema, written: unknown): string | undefined {
    const type = schema.type;
    if (typeof type === "string") return type;
    if (Array.isArray(type)) {
      const writtenType = jsonType(written);
      const fits = type.find((candidate) => candidate === writtenType || (candidate === "number" && writtenType === "integer"));
      return (fits as string | undefined) ?? (type.find((candidate) => candidate !== "null") as string | undefined) ?? "null";
    }
    if (isRecord(schema.properties) || Array.isArray(schema.required)) return "object";
    if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
    if (typeof schema.minLength === "number" || typeof schema.pattern === "string" || typeof schema.format === "string") return "string";
    if (typeof schema.minimum === "number" || typeof schema.maximum === "number") return "number";
    return undefined;
  }

  private buildObject(schema: Schema, written: unknown, path: string): Record<string, unknown> {
    const given = isRecord(written) ? written : {};
    const properties = isRecord(schema.properties) ? (schema.properties as Record<string, unknown>) : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === "string") : []);
    const result: Record<string, unknown> = {};
    // The schema's order, so a filled answer reads as the schema does; what the test wrote keeps its values.
    for (const [key, property] of Object.entries(properties)) {
      if (!isSchema(property)) continue;
      if (!required.has(key) && given[key] === undefined) continue;
      result[key] = this.build(property, given[key], `${path}/${escapePointer(key)}`);
    }
    for (const key of required) {
      if (key in result) continue;
      const extra = isSchema(schema.additionalProperties) ? schema.additionalProperties : {};
      result[key] = this.build(extra, given[key], `${path}/${escapePointer(key)}`);
    }
    for (const [key, field] of Object.entries(given)) {
      if (key in result || field === undefined) continue;
      if (schema.additionalProperties === false) continue;
      const pattern = this.patternPropertyFor(schema, key);
      const extra = pattern ?? (isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined);
      result[key] = extra ? this.build(extra, field, `${path}/${escapePointer(key)}`) : field;
    }
    const minProperties = typeof schema.minProperties === "number" ? schema.minProperties : 0;
    if (Object.keys(result).length < minProperties) {
      for (const [key, property] of Object.entries(properties)) {
        if (Object.keys(result).length >= minProperties) break;
        if (!(key in result) && isSchema(property)) result[key] = this.build(property, undefined, `${path}/${escapePointer(key)}`);
      }
      if (Object.keys(result).length < minProperties) this.unmet.push(`${path || "the value"} needs at least ${minProperties} properties`);
    }
    return result;
  }

  private patternPropertyFor(schema: Schema, key: string): Schema | undefined {
    if (!isRecord(schema.patternProperties)) return undefined;
    for (const [pattern, property] of Object.entries(schema.patternProperties)) {
      if (isSchema(property) && safeRegExp(pattern)?.test(key)) return property;
    }
    return undefined;
  }

  private buildArray(schema: Schema, written: unknown, path: string): unknown[] {
    const given = Array.isArray(written) ? written : [];
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems.filter(isSchema) : [];
    const items = isSchema(schema.items) ? schema.items : undefined;
    const itemAt = (index: number): Schema | undefined => prefix[index] ?? (schema.items === false ? undefined : (items ?? {}));
    const maxItems = typeof schema.maxItems === "number" ? schema.maxItems : Number.POSITIVE_INFINITY;
    const minItems = Math.max(typeof schema.minItems === "number" ? schema.minItems : 0, prefix.length);
    const result: unknown[] = [];
    for (const [index, item] of given.entries()) {
      if (result.length >= maxItems) break;
      const itemSchema = itemAt(index);
      if (!itemSchema) break;
      result.push(this.build(itemSchema, item, `${path}/${index}`));
    }
    while (result.length < minItems) {
      const itemSchema = itemAt(result.length);
      if (!itemSchema) break;
      result.push(this.distinctItem(itemSchema, result, schema.uniqueItems === true, `${path}/${result.length}`));
    }
    if (result.length < minItems) this.unmet.push(`${path || "the value"} needs at least ${minItems} items`);
    return result;
  }

  /** An item for a list, different from the ones before it when the list wants unique items. */
  private distinctItem(schema: Schema, before: unknown[], unique: boolean, path: string): unknown {
    const first = this.build(schema, undefined, path);
    if (!unique || !before.some((item) => sameJson(item, first))) return first;
    const options = Array.isArray(schema.enum) ? schema.enum : undefined;
    const fresh = options?.find((option) => !before.some((item) => sameJson(item, option)));
    if (fresh !== undefined) return fresh;
    if (typeof first === "string") return `${first}${before.length}`;
    if (typeof first === "number") return Math.max(first, ...before.filter((item): item is number => typeof item === "number")) + (schema.type === "integer" ? 1 : 1);
    if (typeof first === "boolean" && !before.includes(!first)) return !first;
    this.unmet.push(`${path} must differ from the items before it`);
    return first;
  }

  private buildString(schema: Schema, written: unknown, path: string): string {
    const minLength = typeof schema.minLength === "number" ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : Number.POSITIVE_INFINITY;
    const at = path || "the value";
    if (typeof schema.pattern === "string") {
      const pattern = safeRegExp(schema.pattern);
      if (!pattern) {
        this.unmet.push(`${at} must match the pattern ${schema.pattern}, which is no regular expression here`);
        return typeof written === "string" ? written : "";
      }
      if (typeof written === "string" && pattern.test(written) && written.length >= minLength && written.length <= maxLength) return written;
      const generated = generateFromPattern(schema.pattern, minLength, maxLength);
      if (generated !== undefined && pattern.test(generated)) return generated;
      this.unmet.push(`${at} must match the pattern ${schema.pattern}, and no string here does${minLength > 0 ? ` in at least ${minLength} characters` : ""}`);
      return typeof written === "string" ? written : "";
    }
    if (typeof schema.format === "string") {
      if (typeof written === "string" && accepts(schema, written)) return written;
      const example = FORMAT_VALUES[schema.format];
      if (example !== undefined && accepts(schema, example)) return example;
      if (example === undefined) this.unmet.push(`${at} must be a "${schema.format}", a format with no example here`);
      else this.unmet.push(`${at} must be a "${schema.format}", and "${example}" is not one here`);
      return typeof written === "string" ? written : (example ?? "");
    }
    let text = typeof written === "string" ? written : typeof written === "number" || typeof written === "boolean" ? String(written) : "";
    if (text.length > maxLength) text = text.slice(0, maxLength);
    // A too-short string keeps what was written, padded to the shortest length the schema takes.
    if (text.length < minLength) text = text + "x".repeat(minLength - text.length);
    if (minLength > maxLength) this.unmet.push(`${at} must have at least ${minLength} and at most ${maxLength} characters`);
    return text;
  }

  private buildNumber(schema: Schema, written: unknown, integer: boolean): number {
    let value = typeof written === "number" && Number.isFinite(written) ? written : 0;
    if (typeof written === "string" && written.trim() !== "" && Number.isFinite(Number(written))) value = Number(written);
    const minimum = typeof schema.minimum === "number" ? schema.minimum : undefined;
    const maximum = typeof schema.maximum === "number" ? schema.maximum : undefined;
    const exclusiveMinimum = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
    const exclusiveMaximum = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
    const step = typeof schema.multipleOf === "number" && schema.multipleOf > 0 ? schema.multipleOf : integer ? 1 : undefined;
    if (integer) value = Math.round(value);
    if (minimum !== undefined && value < minimum) value = minimum;
    if (exclusiveMinimum !== undefined && value <= exclusiveMinimum) value = integer ? Math.floor(exclusiveMinimum) + 1 : exclusiveMinimum + (step ?? 1);
    if (maximum !== undefined && value > maximum) value = maximum;
    if (exclusiveMaximum !== undefined && value >= exclusiveMaximum) value = integer ? Math.ceil(exclusiveMaximum) - 1 : exclusiveMaximum - (step ?? 1);
    if (step !== undefined && !isMultiple(value, step)) {
      const up = Math.ceil(value / step) * step;
      value = maximum !== undefined && up > maximum ? Math.floor(value / step) * step : up;
    }
    return value;
  }
}

function isMultiple(value: number, step: number): boolean {
  const ratio = value / step;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}

/** A schema's pattern as JSON Schema means it: unicode, unanchored. Undefined when it is no regular expression. */
function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/**
 * The same string for the same pattern every time: randexp with every choice its first (fewest
 * repeats, the first alternative, a class's lowest character), taking more of each repeat until
 * the string is `minLength` long. Letters and digits first, so a `.` or `\\S` gives "0", not a
 * space or "!"; then any printable character, for a class of punctuation.
 */
function generateFromPattern(pattern: string, minLength: number, maxLength: number): string | undefined {
  const check = safeRegExp(pattern);
  if (!check) return undefined;
  for (const printable of [false, true]) {
    for (let repeats = 0; repeats <= minLength; repeats++) {
      let candidate: string;
      try {
        const generator = new RandExp(pattern);
        if (!printable) {
          generator.defaultRange.subtract(0, 0x2f);
          generator.defaultRange.subtract(0x3a, 0x40);
          generator.defaultRange.subtract(0x5b, 0x60);
          generator.defaultRange.subtract(0x7b, 0xffff);
        } else generator.defaultRange.subtract(0x7f, 0xffff);
        generator.randInt = (low: number, high: number) => Math.min(high, low + repeats);
        generator.max = Math.max(1, minLength);
        candidate = generator.gen();
      } catch {
        return undefined;
      }
      if (candidate.length >= minLength && candidate.length <= maxLength && check.test(candidate)) return candidate;
    }
  }
  return undefined;
}
