// The test file `turnlens record` writes, as TypeScript source: a small printer that lays values
// and calls out as the examples are formatted (Biome: 2 spaces, double quotes, trailing commas,
// a line broken only when it would pass the width, a last object argument kept on the call's line).
import { canonicalJson, type JsonValue } from "../workflow/json.ts";
import type { Ending } from "../workflow/types.ts";
import { NO_ANSWER_KIND_RECORDED_AS, NO_ANSWER_KINDS } from "../testing/noAnswerKinds.ts";
import type { RecordedEnd, RecordedRun, RecordedTurn } from "./recordedRun.ts";
import { eventIdOption, SILENT_PARTICIPANT, startEventOption } from "./recordReplay.ts";

const WIDTH = 170;
const INDENT = "  ";

/** A piece of source: text that may break over lines at its parts when it does not fit. */
type Doc =
  | { kind: "text"; text: string }
  /** `open parts… close`, parts joined by ", " on one line, or one a line with a trailing comma. */
  | { kind: "group"; open: string; close: string; parts: Doc[]; spaced: boolean }
  /** `head(args…)`: a last object or array argument hugs the call's line when the rest fit. */
  | { kind: "call"; head: string; args: Doc[] }
  /** `key: value`. */
  | { kind: "pair"; key: string; value: Doc };

const text = (value: string): Doc => ({ kind: "text", text: value });
const object = (parts: Doc[]): Doc => ({ kind: "group", open: "{", close: "}", parts, spaced: true });
const array = (parts: Doc[]): Doc => ({ kind: "group", open: "[", close: "]", parts, spaced: false });
const call = (head: string, ...args: Doc[]): Doc => ({ kind: "call", head, args });
const pair = (key: string, value: Doc): Doc => ({ kind: "pair", key: propertyKey(key), value });

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Characters JSON.stringify leaves as they are but that must not reach the written source raw: the
 * line terminators U+2028 and U+2029 (which end a `//` comment), DEL and the C1 controls, and the
 * invisible marks that reorder or hide text in an editor (bidirectional controls, a BOM).
 */
const UNSAFE_IN_STRING = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
/** The same in a comment, and every other control character too (a line feed, a carriage return, a tab). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters is the point: each is escaped
const UNSAFE_IN_COMMENT = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;
const unicodeEscape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `JSON.stringify(value)` with what it leaves raw escaped too: a string literal safe anywhere in the source. */
export function jsString(value: string): string {
  return JSON.stringify(value).replace(UNSAFE_IN_STRING, unicodeEscape);
}

/** Text copied into a `//` comment, kept on its one line: each control or line terminator as its `\\uXXXX`. */
export function commentText(value: string): string {
  return value.replace(UNSAFE_IN_COMMENT, unicodeEscape);
}

/** A string literal in double quotes, or single ones when that needs fewer escapes (as Biome prints it). */
export function stringLiteral(value: string): string {
  const json = jsString(value);
  if (!value.includes('"') || value.includes("'")) return json;
  return `'${json.slice(1, -1).replace(/\\"/g, '"')}'`;
}
const propertyKey = (key: string) => (IDENTIFIER.test(key) ? key : jsString(key));

/** A JSON value as a TypeScript literal. */
export function jsonDoc(value: JsonValue | undefined): Doc {
  if (value === undefined) return text("undefined");
  if (Array.isArray(value)) return array(value.map(jsonDoc));
  if (typeof value === "object" && value !== null) return object(Object.entries(value).map(([key, item]) => pair(key, jsonDoc(item))));
  return text(typeof value === "string" ? stringLiteral(value) : JSON.stringify(value));
}

/** The doc on one line. */
function flat(doc: Doc): string {
  switch (doc.kind) {
    case "text":
      return doc.text;
    case "pair":
      return `${doc.key}: ${flat(doc.value)}`;
    case "call":
      return `${doc.head}(${doc.args.map(flat).join(", ")})`;
    case "group":
      if (doc.parts.length === 0) return `${doc.open}${doc.close}`;
      return doc.spaced ? `${doc.open} ${doc.parts.map(flat).join(", ")} ${doc.close}` : `${doc.open}${doc.parts.map(flat).join(", ")}${doc.close}`;
    default:
      return doc satisfies never;
  }
}

/** Lays `doc` out starting at `column` on a line indented by `indent`, with `after` (`,`, `;`) to follow it. */
function layout(doc: Doc, indent: string, column: number, after = ""): string {
  const one = flat(doc);
  if (column + one.length + after.length <= WIDTH || doc.kind === "text") return one;
  switch (doc.kind) {
    case "pair": {
      const head = `${doc.key}: `;
      // A string too long for the key's line goes on the next, indented (Biome's way; it cannot break).
      if (doc.value.kind === "text" && /^["']/.test(doc.value.text)) return `${doc.key}:\n${indent}${INDENT}${doc.value.text}`;
      return head + layout(doc.value, indent, column + head.length, after);
    }
    case "call": {
      const last = doc.args[doc.args.length - 1];
      const leading = doc.args.slice(0, -1).map(flat);
      const head = `${doc.head}(${leading.map((arg) => `${arg}, `).join("")}`;
      if (last && (last.kind === "group" || last.kind === "call") && column + head.length <= WIDTH) {
        return `${head}${layout(last, indent, column + head.length, `)${after}`)})`;
      }
      const inner = indent + INDENT;
      return `${doc.head}(\n${doc.args.map((arg) => `${inner}${layout(arg, inner, inner.length, ",")},\n`).join("")}${indent})`;
    }
    case "group": {
      const inner = indent + INDENT;
      return `${doc.open}\n${doc.parts.map((part) => `${inner}${layout(part, inner, inner.length, ",")},\n`).join("")}${indent}${doc.close}`;
    }
    default:
      return doc satisfies never;
  }
}

/** A statement at `indent`: the doc, then `;`. */
function statement(doc: Doc, indent: string): string {
  return `${indent}${layout(doc, indent, indent.length, ";")};\n`;
}

/** The `noAnswer.…()` that ends an operation as `end` did; undefined for an answer. */
function noAnswerDoc(end: RecordedEnd): Doc | undefined {
  if (end.end === "answered") return undefined;
  const { method, defaultReason } = NO_ANSWER_KINDS[NO_ANSWER_KIND_RECORDED_AS[end.end]];
  // The run's reason is written only where the method takes one and it is not the default.
  if (defaultReason === undefined || end.reason === undefined || end.reason === defaultReason) return call(`noAnswer.${method}`);
  return call(`noAnswer.${method}`, text(stringLiteral(end.reason)));
}

export interface SourceInput {
  recorded: RecordedRun;
  /** The workflow's import specifier from the test file, e.g. `./workflow`. */
  workflowImport: string;
  /** `default`, or the named export that holds the workflow. */
  workflowExport: string;
  /** The workflow's name, for the local binding of a default import. */
  workflowName: string;
  /** The workflow file's exported schema names, by canonical JSON. */
  schemaNames: ReadonlyMap<string, string>;
  /** How the replay ended: the assertions the test makes. */
  ending: Ending<unknown>;
  /** Each turn as the replay ran it, in order: `agent#n[ nudge] outcome`. */
  turns: readonly string[];
  /** Where the run came from, for the header comment. */
  from: string;
  /** The participants the replay reached, each scripted silent as the replay had it. */
  participants: readonly string[];
}

/** The whole test file. */
export function testSource(input: SourceInput): string {
  const { recorded } = input;
  const imported = new Set<string>();
  const localSchemas = new Map<string, string>();
  const schemaName = (turn: RecordedTurn): string | undefined => {
    if (turn.schema === undefined) return undefined;
    const canonical = canonicalJson(turn.schema);
    const exported = input.schemaNames.get(canonical);
    if (exported) {
      imported.add(exported);
      return exported;
    }
    let local = localSchemas.get(canonical);
    if (!local) {
      const base = `${turn.agent.replace(/[^A-Za-z0-9]+/g, "_").toUpperCase()}_ANSWER`.replace(/^(?=\d)/, "_");
      local = base;
      for (let next = 2; [...localSchemas.values()].includes(local); next++) local = `${base}_${next}`;
      localSchemas.set(canonical, local);
    }
    return local;
  };
  const uses = { answer: false, noAnswer: false };
  const entryDoc = (turn: RecordedTurn): Doc => {
    const main = turn.ends.find((end) => !end.nudge) ?? turn.ends[0]!;
    const nudge = turn.ends.find((end) => end.nudge);
    const reply = (end: RecordedEnd): Doc => noAnswerDoc(end) ?? jsonDoc(end.answer);
    const answerOf = (value: Doc) => {
      uses.answer = true;
      // Named only where an answer is written, so a noAnswer-only script imports no schema.
      const schema = schemaName(turn);
      return schema === undefined ? call("answer", value) : call("answer", text(schema), value);
    };
    if (!nudge || (nudge.end === main.end && main.end !== "answered")) {
      const ended = noAnswerDoc(main);
      if (ended) {
        uses.noAnswer = true;
        return ended;
      }
      return answerOf(jsonDoc(main.answer));
    }
    // The same entry meets the turn and its nudge: a function tells them apart.
    uses.noAnswer ||= main.end !== "answered" || nudge.end !== "answered";
    return answerOf(text(`(turn) => (turn.nudge ? ${flat(reply(nudge))} : ${flat(reply(main))})`));
  };

  const agents = new Map<string, RecordedTurn[]>();
  for (const turn of recorded.turns) (agents.get(turn.agent) ?? agents.set(turn.agent, []).get(turn.agent)!).push(turn);
  const agentParts: Doc[] = [];
  for (const [agent, turns] of agents) {
    const ordered = [...turns].sort((a, b) => a.n - b.n);
    agentParts.push(pair(agent, ordered.length === 1 ? entryDoc(ordered[0]!) : array(ordered.map(entryDoc))));
  }
  const options: Doc[] = [];
  if (recorded.args !== undefined) options.push(pair("args", jsonDoc(recorded.args)));
  if (recorded.id !== undefined) options.push(pair("id", text(stringLiteral(recorded.id))));
  if (agentParts.length) options.push(pair("agents", object(agentParts)));
  if (input.participants.length) options.push(pair("participants", object(input.participants.map((key) => pair(key, text(SILENT_PARTICIPANT))))));
  const start = startEventOption(recorded);
  if (start) options.push(pair("event", jsonDoc(start as unknown as JsonValue)));
  if (recorded.events.length) {
    options.push(
      pair(
        "events",
        array(
          recorded.events.map((event, index) =>
            jsonDoc({ [event.when]: event.turn, name: event.name, data: event.data, ...eventIdOption(event.eventId, index) } as unknown as JsonValue),
          ),
        ),
      ),
    );
  }

  if (recorded.decisions.length) {
    options.push(
      pair(
        "decisions",
        object(
          recorded.decisions.map((decision) =>
            pair(decision.key, decision.error !== undefined ? call("new Error", text(stringLiteral(decision.error))) : jsonDoc(decision.answers ?? {})),
          ),
        ),
      ),
    );
  }

  const binding = input.workflowExport === "default" ? localName(input.workflowName) : input.workflowExport;
  const body: string[] = [];
  body.push(`  const run = await testWorkflow(${binding}, {\n`);
  for (const option of options) body.push(`    ${layout(option, "    ", 4, ",")},\n`);
  body.push("  });\n");
  body.push(
    statement(
      call(
        `expect(run.turns.map((turn) => \`\${turn.agent}#\${turn.n}\${turn.nudge ? " nudge" : ""} \${turn.outcome}\`)).toEqual`,
        array(input.turns.map((turn) => text(stringLiteral(turn)))),
      ),
      "  ",
    ),
  );
  const ending = input.ending;
  if (ending.kind === "completed") body.push(statement(call("expect(run.value).toEqual", jsonDoc(ending.value as JsonValue)), "  "));
  else {
    const fields: Record<string, JsonValue> = { kind: ending.kind };
    if ("stage" in ending && ending.stage !== undefined) fields.stage = ending.stage;
    if (ending.kind === "parked") fields.label = ending.label;
    else fields.reason = ending.reason;
    body.push(statement(call("expect(run.ending).toMatchObject", jsonDoc(fields)), "  "));
  }

  const lines: string[] = [];
  lines.push(`// Written by \`turnlens record\` from ${commentText(input.from)}: the run's answers and events, replayed.`);
  if (input.participants.length) lines.push("// Its participants say nothing: what they told an agent in its turn is in that turn's answer.");
  lines.push(`import { expect, test } from "bun:test";`);
  const testing = [...(uses.answer ? ["answer"] : []), ...(uses.noAnswer ? ["noAnswer"] : []), "testWorkflow"];
  lines.push(`import { ${testing.join(", ")} } from "agentswf/testing";`);
  if (localSchemas.size) lines.push(`import { Type } from "agentswf/workflow";`);
  const names = [...imported].sort();
  if (input.workflowExport !== "default") names.unshift(input.workflowExport);
  const named = names.length ? `{ ${[...new Set(names)].join(", ")} }` : "";
  const clause = input.workflowExport === "default" ? [binding, named].filter(Boolean).join(", ") : named;
  lines.push(`import ${clause} from ${jsString(input.workflowImport)};`);
  lines.push("");
  if (localSchemas.size) {
    // A schema the workflow file does not export: the recorded JSON Schema, as it was.
    for (const [canonical, name] of localSchemas) lines.push(statement(call(`const ${name} = Type.Unsafe`, jsonDoc(JSON.parse(canonical))), "").trimEnd());
    lines.push("");
  }
  const title = recorded.id !== undefined ? `replays run ${recorded.id}` : "replays the recorded run";
  return `${lines.join("\n")}\ntest(${jsString(title)}, async () => {\n${body.join("")}});\n`;
}

/** `feature-delivery` → `featureDelivery`: the binding of a default-imported workflow. */
function localName(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join("");
  return IDENTIFIER.test(joined) && !RESERVED.has(joined) ? joined : "workflow";
}

const RESERVED = new Set(["answer", "noAnswer", "testWorkflow", "expect", "test", "run", "Type", "default", "delete", "new", "class", "function"]);
