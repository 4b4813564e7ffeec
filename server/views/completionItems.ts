// What textDocument/completion offers in a test file, from the place the cursor is in: inside
// `answer(SCHEMA, value)` the schema's property names at the cursor's path (required first, with
// type and description), its enum and literal values, true/false, and snippets of a whole object or
// array item that the schema accepts; the kinds after `noAnswer.`; a `decisions` script's keys,
// question ids and answers. Beside the editor's own TypeScript (`besideTypeScript`), only what
// TypeScript does not offer: its items (names, literals, keywords, methods) are not offered twice.
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type CompletionList, type Range } from "vscode-languageserver";
import { NO_ANSWER_KINDS } from "../../core/testing/noAnswerKinds.ts";
import { validAnswer } from "../../core/testing/validAnswer.ts";
import type { Question } from "../../core/workflow/types.ts";
import type { PathStep, ValuePlace } from "../analysis/completionContext.ts";
import type { KnownDecision } from "../answerSchemas.ts";
import { jsLiteral } from "../../core/testing/problemFixes.ts";

export type Schema = Record<string, unknown>;

export function list(items: CompletionItem[]): CompletionList | null {
  return items.length > 0 ? { isIncomplete: false, items } : null;
}

/**
 * After `noAnswer.`: its methods. Beside TypeScript none: TypeScript lists the same methods, with
 * the same words (their JSDoc in core/testing/entries.ts).
 */
export function noAnswerItems(replace: Range, besideTypeScript: boolean): CompletionItem[] {
  if (besideTypeScript) return [];
  return Object.values(NO_ANSWER_KINDS).map(({ method, docs }, index) => ({
    label: method,
    kind: CompletionItemKind.Method,
    detail: `noAnswer.${method}()`,
    documentation: { kind: MarkupKind.Markdown, value: docs },
    sortText: String(index).padStart(2, "0"),
    textEdit: { range: replace, newText: method },
  }));
}

/** The items of a place in a value, for the schema at the root of that value. */
export function itemsForSchema(root: Schema, place: ValuePlace, snippets: boolean, besideTypeScript: boolean): CompletionItem[] {
  const schemas = schemasAt(root, root, place.path, place.kind === "key" ? place.literals : {});
  if (place.kind === "key") return besideTypeScript ? restItems(root, schemas, place, snippets) : keyItems(root, schemas, place, snippets);
  return valueItems(root, schemas, place, snippets, besideTypeScript);
}

/** The schemas a value at `path` may have, through unions, `allOf` and `$ref`. */
function schemasAt(root: Schema, schema: Schema, path: PathStep[], literals: Record<string, unknown>, depth = 0): Schema[] {
  if (depth > 30) return [];
  const alternatives = expand(root, schema);
  if (path.length === 0) {
    // Of a union of objects, the branches the literal properties written so far agree with.
    const agreeing = alternatives.filter((candidate) => agrees(root, candidate, literals));
    return agreeing.length > 0 ? agreeing : alternatives;
  }
  const [step, ...rest] = path;
  return alternatives.flatMap((candidate) => {
    const child = childSchema(candidate, step!);
    return child ? schemasAt(root, child, rest, literals, depth + 1) : [];
  });
}

function expand(root: Schema, schema: Schema, depth = 0): Schema[] {
  if (depth > 20) return [];
  if (typeof schema.$ref === "string") {
    const target = resolveRef(root, schema.$ref);
    return target ? expand(root, target, depth + 1) : [];
  }
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union) return union.filter(isSchema).flatMap((branch) => expand(root, branch, depth + 1));
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.filter(isSchema).flatMap((part) => expand(root, part, depth + 1));
    const properties = Object.assign({}, ...parts.map((part) => (isSchema(part.properties) ? part.properties : {})));
    const required = parts.flatMap((part) => (Array.isArray(part.required) ? part.required : []));
    return [{ ...schema, type: "object", properties, required }];
  }
  return [schema];
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref.startsWith("#")) {
    let node: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) node = isSchema(node) ? node[part] : undefined;
    return isSchema(node) ? node : undefined;
  }
  const defs = isSchema(root.$defs) ? root.$defs : {};
  const byName = defs[ref];
  if (isSchema(byName)) return byName;
  return Object.values(defs).find((candidate): candidate is Schema => isSchema(candidate) && candidate.$id === ref);
}

function agrees(root: Schema, schema: Schema, literals: Record<string, unknown>): boolean {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  return Object.entries(literals).every(([key, value]) => {
    const property = properties[key];
    if (!isSchema(property)) return true;
    return expand(root, property).some((candidate) => !("const" in candidate) || JSON.stringify(candidate.const) === JSON.stringify(value));
  });
}

function childSchema(schema: Schema, step: PathStep): Schema | undefined {
  if (typeof step === "number") {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    const item = prefix[step] ?? schema.items;
    return isSchema(item) ? item : undefined;
  }
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const property = properties[step];
  if (isSchema(property)) return property;
  return isSchema(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/**
 * At a key beside TypeScript, which lists the property names itself (answer's value is typed
 * `Static<SCHEMA>`): one item per object the schema accepts there, writing every required property
 * not yet written with a value it accepts, and documenting each property not yet written (required
 * or not, its type, the schema's description, which TypeScript's types do not carry).
 */
function restItems(root: Schema, schemas: Schema[], place: Extract<ValuePlace, { kind: "key" }>, snippets: boolean): CompletionItem[] {
  if (place.hasColon) return [];
  const items: CompletionItem[] = [];
  for (const schema of schemas) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const missing = Object.keys(properties).filter((key) => required.has(key) && isSchema(properties[key]) && !place.written.includes(key));
    if (missing.length === 0) continue;
    const rest = Object.fromEntries(missing.map((key) => [key, properties[key]]));
    const restSchema: Schema = { type: "object", properties: rest, required: missing };
    const text = valueText(root, restSchema, snippets, 1)!;
    const whole = jsLiteral(validAnswer(withDefs(root, restSchema)).value);
    // Without the braces: the item writes properties into the object the cursor is in.
    const inner = (value: string) => value.replace(/^\{ ?/, "").replace(/ ?\}$/, "");
    const shown = inner(whole);
    const label = shown.length > 60 ? `${shown.slice(0, 59)}…` : shown;
    if (items.some((item) => item.label === label)) continue;
    const unwritten = Object.fromEntries(Object.entries(properties).filter(([key]) => !place.written.includes(key)));
    const item: CompletionItem = {
      label,
      kind: CompletionItemKind.Snippet,
      detail: `the required ${missing.length === 1 ? "property" : "properties"} · ${missing.join(", ")}`,
      sortText: `0${String(items.length).padStart(3, "0")}`,
      filterText: missing[0]!,
      textEdit: { range: place.replace, newText: inner(text) },
    };
    if (snippets) item.insertTextFormat = InsertTextFormat.Snippet;
    const fields = objectFields(root, { properties: unwritten, required: [...required] });
    if (fields) item.documentation = { kind: MarkupKind.Markdown, value: fields };
    items.push(item);
  }
  return items;
}

function keyItems(root: Schema, schemas: Schema[], place: Extract<ValuePlace, { kind: "key" }>, snippets: boolean): CompletionItem[] {
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  for (const schema of schemas) {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const keys = Object.keys(properties).sort((left, right) => Number(required.has(right)) - Number(required.has(left)));
    for (const key of keys) {
      const property = properties[key];
      if (!isSchema(property) || place.written.includes(key) || seen.has(key)) continue;
      seen.add(key);
      const isRequired = required.has(key);
      const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
      const value = place.hasColon ? undefined : valueText(root, property, snippets, 1);
      const item: CompletionItem = {
        label: key,
        kind: CompletionItemKind.Property,
        detail: `${isRequired ? "required" : "optional"} · ${typeLabel(root, property)}`,
        sortText: `${isRequired ? "0" : "1"}${String(items.length).padStart(3, "0")}`,
        filterText: key,
        textEdit: { range: place.replace, newText: value === undefined ? name : `${name}: ${value}` },
      };
      if (value !== undefined && snippets) item.insertTextFormat = InsertTextFormat.Snippet;
      const description = descriptionOf(root, property);
      if (description) item.documentation = { kind: MarkupKind.Markdown, value: description };
      items.push(item);
    }
  }
  return items;
}

/**
 * At a value: its literals and `true`/`false`/`null`, and a whole value the schema accepts. Beside
 * TypeScript, not the literals its types name (a `const`, TypeBox's `Type.Enum`: a bare `enum`),
 * which it offers in quotes and out, nor the keywords it offers at every value: only an `enum`
 * beside a `type` (`Type.String({ enum })`, typed `string`) and the whole values.
 */
function valueItems(root: Schema, schemas: Schema[], place: Extract<ValuePlace, { kind: "value" }>, snippets: boolean, besideTypeScript: boolean): CompletionItem[] {
  const items: CompletionItem[] = [];
  const add = (label: string, newText: string, kind: CompletionItemKind, detail: string, snippet = false) => {
    if (items.some((item) => item.label === label)) return;
    const item: CompletionItem = { label, kind, detail, sortText: String(items.length).padStart(3, "0"), textEdit: { range: place.replace, newText } };
    if (snippet && snippets) item.insertTextFormat = InsertTextFormat.Snippet;
    items.push(item);
  };
  // A literal's detail is the whole set it is one of: `"low" | "high"`.
  const typed = (schema: Schema) => besideTypeScript && ("const" in schema || schema.type === undefined);
  const literalSet = schemas
    .filter((schema) => "const" in schema || Array.isArray(schema.enum))
    .map((schema) => typeLabel(root, schema))
    .join(" | ");
  for (const schema of schemas) {
    const literals = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
    for (const literal of typed(schema) ? [] : literals) {
      if (place.inString) {
        if (typeof literal === "string") add(literal, literal, CompletionItemKind.EnumMember, literalSet);
      } else add(jsLiteral(literal), jsLiteral(literal), CompletionItemKind.EnumMember, literalSet);
    }
    if (literals.length > 0 || place.inString) continue;
    const type = typeOf(schema);
    if (besideTypeScript && (type === "boolean" || type === "null")) continue;
    if (type === "boolean") {
      add("true", "true", CompletionItemKind.Keyword, "boolean");
      add("false", "false", CompletionItemKind.Keyword, "boolean");
    } else if (type === "null") add("null", "null", CompletionItemKind.Keyword, "null");
    else if (type === "object" || type === "array" || type === "string" || type === "number" || type === "integer") {
      const text = valueText(root, schema, snippets, 1)!;
      // The value itself is the label: a union's branches read apart (`{ kind: "ready", summary: "" }`).
      const whole = jsLiteral(validAnswer(withDefs(root, schema)).value);
      const label = whole.length > 60 ? `${whole.slice(0, 59)}…` : whole;
      add(label, text, CompletionItemKind.Snippet, `${type === "object" && place.arrayItem ? "an item: " : ""}${typeLabel(root, schema)}`, true);
      const fields = type === "object" ? objectFields(root, schema) : undefined;
      const made = items.at(-1);
      if (fields && made?.label === label) made.documentation = { kind: MarkupKind.Markdown, value: fields };
    }
  }
  return items;
}

/** An object schema's properties, one line each: name, required or not, type, description. */
function objectFields(root: Schema, schema: Schema): string | undefined {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const lines = Object.entries(properties)
    .filter((entry): entry is [string, Schema] => isSchema(entry[1]))
    .map(([key, property]) => {
      const description = descriptionOf(root, property);
      return `- \`${key}\`${required.has(key) ? "" : " (optional)"}: ${typeLabel(root, property)}${description ? ` — ${description}` : ""}`;
    });
  return lines.length > 0 ? lines.join("\n") : undefined;
}

/**
 * The text of a value the schema accepts (validAnswer's), as a snippet whose placeholders are its
 * leaves when the client takes snippets: Tab walks from one to the next.
 */
function valueText(root: Schema, schema: Schema, snippets: boolean, first: number): string | undefined {
  const value = validAnswer(withDefs(root, schema)).value;
  if (!snippets) return jsLiteral(value);
  let next = first;
  const walk = (part: unknown): string => {
    if (Array.isArray(part)) return part.length === 0 ? `[$${next++}]` : `[${part.map(walk).join(", ")}]`;
    if (part !== null && typeof part === "object") {
      const fields = Object.entries(part as Record<string, unknown>);
      if (fields.length === 0) return `{ $${next++} }`;
      return `{ ${fields.map(([key, field]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${walk(field)}`).join(", ")} }`;
    }
    if (typeof part === "string") return `"\${${next++}:${escapeSnippet(JSON.stringify(part).slice(1, -1))}}"`;
    return `\${${next++}:${escapeSnippet(jsLiteral(part))}}`;
  };
  return walk(value);
}

/** A part of a schema with the root's `$defs`, so validAnswer can follow its `$ref`s. */
function withDefs(root: Schema, schema: Schema): Schema {
  return root.$defs && schema !== root ? { ...schema, $defs: root.$defs } : schema;
}

function escapeSnippet(text: string): string {
  return text.replace(/[$}\\]/g, (character) => `\\${character}`);
}

function typeOf(schema: Schema): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== "null") as string | undefined;
  if (isSchema(schema.properties)) return "object";
  if (schema.items !== undefined) return "array";
  return undefined;
}

/** A schema in a few words: `string, at least 3 characters`, `"low" | "high"`, `array of string`. */
export function typeLabel(root: Schema, schema: Schema, depth = 0): string {
  const alternatives = expand(root, schema);
  if (alternatives.length !== 1) return alternatives.map((branch) => typeLabel(root, branch, depth + 1)).join(" | ");
  const only = alternatives[0]!;
  if ("const" in only) return jsLiteral(only.const);
  if (Array.isArray(only.enum)) return only.enum.map(jsLiteral).join(" | ");
  const type = typeOf(only) ?? "any";
  const notes: string[] = [];
  if (typeof only.format === "string") notes.push(`format ${only.format}`);
  if (typeof only.pattern === "string") notes.push(`matching ${only.pattern}`);
  if (typeof only.minLength === "number") notes.push(`at least ${only.minLength} characters`);
  if (typeof only.maxLength === "number") notes.push(`at most ${only.maxLength} characters`);
  if (typeof only.minimum === "number") notes.push(`≥ ${only.minimum}`);
  if (typeof only.exclusiveMinimum === "number") notes.push(`> ${only.exclusiveMinimum}`);
  if (typeof only.maximum === "number") notes.push(`≤ ${only.maximum}`);
  if (typeof only.exclusiveMaximum === "number") notes.push(`< ${only.exclusiveMaximum}`);
  if (typeof only.minItems === "number") notes.push(`at least ${only.minItems} items`);
  if (typeof only.maxItems === "number") notes.push(`at most ${only.maxItems} items`);
  let label = type;
  if (type === "array" && isSchema(only.items) && depth < 3) label = `array of ${typeLabel(root, only.items, depth + 1)}`;
  if (type === "object" && isSchema(only.properties)) {
    const required = Array.isArray(only.required) ? only.required : [];
    if (required.length > 0) label = `object with ${required.join(", ")}`;
  }
  return notes.length > 0 ? `${label}, ${notes.join(", ")}` : label;
}

function descriptionOf(root: Schema, schema: Schema): string | undefined {
  const parts = [schema, ...expand(root, schema)];
  const found = parts.map((part) => part.description).find((text): text is string => typeof text === "string" && text.length > 0);
  return found;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The items of a `decisions` script: the decision keys the runs asked, their question ids, and each
 * question's answers, which TypeScript's types do not know (a script's type is a record of any key);
 * beside TypeScript, not a yes-no's `true` and `false`, which it offers at every value.
 */
export function decisionItems(decisions: Map<string, KnownDecision>, place: ValuePlace, snippets: boolean, besideTypeScript: boolean): CompletionItem[] {
  if (place.kind === "key" && place.path.length === 0) {
    return [...decisions.values()]
      .filter((decision) => !place.written.includes(decision.key))
      .map((decision, index) => {
        const answers = Object.entries(decision.questions).map(([id, question], at) => `${id}: ${answerSnippet(question, snippets, at + 1)}`);
        const name = /^[A-Za-z_$][\w$]*$/.test(decision.key) ? decision.key : JSON.stringify(decision.key);
        const item: CompletionItem = {
          label: decision.key,
          kind: CompletionItemKind.Property,
          detail: `decision · ${Object.keys(decision.questions).join(", ")}`,
          sortText: String(index).padStart(3, "0"),
          textEdit: { range: place.replace, newText: place.hasColon ? name : `${name}: { ${answers.join(", ")} }` },
        };
        if (snippets && !place.hasColon) item.insertTextFormat = InsertTextFormat.Snippet;
        return item;
      });
  }
  const decision = typeof place.path[0] === "string" ? decisions.get(place.path[0]) : undefined;
  if (!decision) return [];
  if (place.kind === "key" && place.path.length === 1) {
    return Object.entries(decision.questions)
      .filter(([id]) => !place.written.includes(id))
      .map(([id, question], index) => {
        const item: CompletionItem = {
          label: id,
          kind: CompletionItemKind.Property,
          detail: `${question.kind} · ${answersOf(question)
            .map((answer) => shownAnswer(question, answer))
            .join(" | ")}`,
          documentation: { kind: MarkupKind.Markdown, value: question.instructions },
          sortText: String(index).padStart(3, "0"),
          textEdit: { range: place.replace, newText: place.hasColon ? id : `${id}: ${answerSnippet(question, snippets, 1)}` },
        };
        if (snippets && !place.hasColon) item.insertTextFormat = InsertTextFormat.Snippet;
        return item;
      });
  }
  const question = place.kind === "value" && place.path.length === 2 && typeof place.path[1] === "string" ? decision.questions[place.path[1]] : undefined;
  if (!question || place.kind !== "value" || (besideTypeScript && question.kind === "yes-no")) return [];
  return answersOf(question)
    .filter((answer) => !place.inString || answer.startsWith('"'))
    .map((answer, index) => ({
      label: place.inString ? JSON.parse(answer) : answer,
      kind: CompletionItemKind.EnumMember,
      detail: question.kind === "score" ? `score · ${shownAnswer(question, answer)}` : question.kind,
      sortText: String(index).padStart(3, "0"),
      textEdit: { range: place.replace, newText: place.inString ? JSON.parse(answer) : answer },
    }));
}

/**
 * A question's shorthand answers, as written in a script: a choice's options, a score's level
 * indexes (the page's shorthand: a level's name is refused at run time, so it is never offered),
 * a yes-no's true and false.
 */
function answersOf(question: Question): string[] {
  switch (question.kind) {
    case "choice":
      return Object.keys(question.options).map((option) => JSON.stringify(option));
    case "score":
      return question.levels.map((_, index) => String(index));
    case "yes-no":
      return ["true", "false"];
    default:
      return question satisfies never;
  }
}

/** An answer as a completion shows it: a score's index with its level's name (`2 high`). */
function shownAnswer(question: Question, answer: string): string {
  return question.kind === "score" ? `${answer} ${question.levels[Number(answer)] ?? ""}`.trim() : answer;
}

function answerSnippet(question: Question, snippets: boolean, at: number): string {
  const answers = answersOf(question);
  if (!snippets) return answers[0] ?? "true";
  // A choice snippet: the client offers the options to pick from.
  return `\${${at}|${answers.map((answer) => answer.replace(/[,|$}\\]/g, (character) => `\\${character}`)).join(",")}|}`;
}
