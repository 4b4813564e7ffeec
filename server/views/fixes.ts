// The text edits behind the quick fixes: rename an option, remove entries no turn reached, add the
// entry a turn past a list needed, add a script for an unscripted agent or decision, fill an answer with a value
// its schema accepts, and import what they name. A diagnostic keeps only what its fixes need
// (`FixNeed`, runView.ts); features/codeActions.ts makes the edits (`fixesOf`) when they are asked.
import type { Position, Range, TextEdit } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { StaticEntry, StaticScript, StaticScripts, StaticTestFile, StaticTestWorkflowCall } from "../analysis/model.ts";
import { positionBefore, sameRange } from "../analysis/ranges.ts";
import { decisionScriptText, entryChoices as entryTexts, fixTitles, jsLiteral, propertyName, type NamedSchema } from "../../core/testing/problemFixes.ts";
import type { Question } from "../../core/workflow/types.ts";
import { partialValueOf, writtenValueAt, type WrittenValue } from "../analysis/writtenAnswer.ts";
import { entriesOfScript } from "../analysis/siteLookup.ts";
import { validAnswer } from "../../core/testing/validAnswer.ts";

export type { NamedSchema };

/** One way to fix a diagnostic. */
export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The fix an editor applies first, and the one "fix all" applies. */
  preferred?: boolean;
}

/** What one diagnostic's fixes need, kept by the view; the edits are made from it on request. */
export type FixNeed =
  | { kind: "rename"; nameRange: Range; written: string; suggestion: string }
  | { kind: "removeUnreached"; item: Unreached }
  | { kind: "addEntry"; script: StaticScript; agent: string; turn: number; schema: unknown; named: NamedSchema | undefined }
  | { kind: "addScript"; call: StaticTestWorkflowCall; agent: string; schema: unknown; named: NamedSchema | undefined }
  | { kind: "addDecisionScript"; call: StaticTestWorkflowCall; key: string; questions: Readonly<Record<string, Question>> }
  | { kind: "answerWith"; schemaRange: Range; named: NamedSchema }
  | { kind: "fill"; valueRange: Range; schema: unknown };

/** The text the run ran (a run's diagnostics are only offered while it is the document's text) and its static model. */
export interface FixSource {
  document: TextDocument;
  text: string;
  model: StaticTestFile;
}

/** The fixes a need stands for, made against `source`. */
export function fixesOf(need: FixNeed, source: FixSource): Fix[] {
  const { document, model } = source;
  switch (need.kind) {
    case "rename":
      return [renameOption(need.nameRange, need.written, need.suggestion)];
    case "removeUnreached": {
      const { item } = need;
      const entries = item.entries ? entriesOfScript(item.script).filter((entry) => item.entries!.includes(entry)) : [];
      const title = item.entries ? fixTitles.removeUnreached(entries.length) : fixTitles.removeNeverAsked(item.script.key);
      return [{ title, edits: removeUnreached([item]), preferred: true }];
    }
    case "addEntry":
      return addEntryFixes(document, model, need.script, need.agent, need.turn, need.schema, need.named);
    case "addScript":
      return addScriptFixes(document, model, need.call, need.agent, need.schema, need.named);
    case "addDecisionScript":
      return addDecisionScriptFixes(document, need.call, need.key, need.questions);
    case "answerWith":
      return [
        {
          title: fixTitles.answerWith(need.named.name),
          edits: [...ensureImport(document, model, need.named.module, need.named.name), { range: need.schemaRange, newText: need.named.name }],
          preferred: true,
        },
      ];
    case "fill": {
      const fill = fillAnswerFix(document, need.valueRange, writtenValueAt(source.text, need.valueRange), need.schema);
      return fill ? [fill] : [];
    }
    default:
      return need satisfies never;
  }
}

/** "Remove every entry never reached in this file", over the file's unreached entries. */
export function removeEveryUnreached(unreached: Unreached[]): Fix {
  return { title: "Remove every entry never reached in this file", edits: removeUnreached(unreached) };
}

const TESTING_MODULES = ["agentswf/testing", "turnlens/testing"];

export function renameOption(nameRange: Range, written: string, suggestion: string): Fix {
  return { title: fixTitles.rename(written, suggestion), edits: [{ range: nameRange, newText: suggestion }], preferred: true };
}

/** The list a script's entries are written in: the script's own, or the const it names. */
function listOf(script: StaticScript): { entries: StaticEntry[]; start: Position; listEnd?: Position } {
  if (script.shape === "list" || !script.definition) {
    const list: { entries: StaticEntry[]; start: Position; listEnd?: Position } = { entries: script.entries, start: script.valueRange.start };
    if (script.listEnd) list.listEnd = script.listEnd;
    return list;
  }
  const definition = script.definition;
  const list: { entries: StaticEntry[]; start: Position; listEnd?: Position } = { entries: definition.entries, start: definition.range.start };
  if (definition.listEnd) list.listEnd = definition.listEnd;
  return list;
}

/**
 * Deletes `removed` items of a comma-separated sequence, commas included, without overlapping
 * edits: a run of removed items goes up to the next kept item, or back to the previous one at the end.
 */
function removeFromSequence(items: Range[], removed: ReadonlySet<number>): TextEdit[] {
  const edits: TextEdit[] = [];
  for (let first = 0; first < items.length; first++) {
    if (!removed.has(first)) continue;
    let last = first;
    while (removed.has(last + 1)) last++;
    const next = items[last + 1];
    const previous = items[first - 1];
    if (next) edits.push({ range: { start: items[first]!.start, end: next.start }, newText: "" });
    else if (previous) edits.push({ range: { start: previous.end, end: items[last]!.end }, newText: "" });
    else edits.push({ range: { start: items[first]!.start, end: items[last]!.end }, newText: "" });
    first = last;
  }
  return edits;
}

/** What never-reached removal takes out of one call's scripts: whole properties, or some entries. */
export interface Unreached {
  /** The scripts object the property belongs to. */
  scripts: StaticScript[];
  script: StaticScript;
  /** The list entries no turn reached; the whole property when absent. */
  entries?: StaticEntry[];
}

/** Edits removing every unreached entry (and whole properties when nothing of them is reached). */
export function removeUnreached(unreached: Unreached[]): TextEdit[] {
  const edits: TextEdit[] = [];
  // Properties to remove, grouped by the object they sit in.
  const properties = new Map<StaticScript[], Set<number>>();
  const entriesByScript = new Map<StaticScript, Set<StaticEntry>>();
  for (const item of unreached) {
    const list = listOf(item.script);
    const removedEntries = entriesByScript.get(item.script) ?? new Set<StaticEntry>();
    for (const entry of item.entries ?? list.entries) removedEntries.add(entry);
    entriesByScript.set(item.script, removedEntries);
  }
  for (const item of unreached) {
    const list = listOf(item.script);
    const removedEntries = entriesByScript.get(item.script)!;
    const whole = !item.entries || list.entries.every((entry) => removedEntries.has(entry));
    if (!whole) continue;
    const set = properties.get(item.scripts) ?? new Set<number>();
    set.add(item.scripts.indexOf(item.script));
    properties.set(item.scripts, set);
    entriesByScript.delete(item.script);
  }
  for (const [scripts, removed] of properties)
    edits.push(
      ...removeFromSequence(
        scripts.map((script) => script.propertyRange),
        removed,
      ),
    );
  for (const [script, removedEntries] of entriesByScript) {
    const list = listOf(script);
    const removed = new Set(list.entries.flatMap((entry, index) => (removedEntries.has(entry) ? [index] : [])));
    edits.push(
      ...removeFromSequence(
        list.entries.map((entry) => entry.range),
        removed,
      ),
    );
  }
  return dedupe(edits);
}

export const FILL_TITLE = "Fill with a valid answer";

/**
 * "Fill with a valid answer": the value argument of an `answer(SCHEMA, value)` replaced by the
 * smallest value SCHEMA accepts, keeping what was written where it is valid (and, as written, what
 * the text cannot evaluate). The title names each constraint it could not meet.
 */
export function fillAnswerFix(document: TextDocument, valueRange: Range, written: WrittenValue | undefined, schema: unknown): Fix | undefined {
  if (written?.kind === "opaque") return undefined;
  const { value, unmet } = validAnswer(schema, partialValueOf(written));
  const newText = renderFilled(value, written, lineIndent(document, valueRange.start.line));
  if (written && newText === written.text) return undefined;
  const title = unmet.length === 0 ? FILL_TITLE : `Fill with an answer (not met: ${unmet.join("; ")})`;
  return { title, edits: [{ range: valueRange, newText }], preferred: unmet.length === 0 };
}

/** A filled value as text: the written text of each part it kept, a literal for each part it made. */
function renderFilled(value: unknown, written: WrittenValue | undefined, indent: string): string {
  if (written?.kind === "opaque") return written.text;
  if (written?.kind === "literal" && JSON.stringify(written.value) === JSON.stringify(value)) return written.text;
  if (written?.kind === "object" && value !== null && typeof value === "object" && !Array.isArray(value)) {
    const inner = written.memberIndent ?? `${indent}  `;
    // A spread or computed member stays first, as written: the fill cannot tell what it holds.
    const parts = written.members.filter((member) => member.key === undefined).map((member) => withComments(member.comments, member.text, written.multiline, inner));
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      const member = written.members.find((candidate) => candidate.key === key);
      const kept = member && (member.value.kind === "opaque" || JSON.stringify(partialValueOf(member.value)) === JSON.stringify(field));
      const text = kept ? member.text : `${propertyName(key)}: ${renderFilled(field, member?.value, inner)}`;
      parts.push(withComments(member?.comments ?? [], text, written.multiline, inner));
    }
    return layout(parts, "{", "}", written.multiline, written.closeIndent ?? indent, inner);
  }
  if (written?.kind === "array" && Array.isArray(value)) {
    const inner = written.memberIndent ?? `${indent}  `;
    const parts = value.map((item, index) => renderFilled(item, written.elements[index], inner));
    return layout(parts, "[", "]", written.multiline, written.closeIndent ?? indent, inner);
  }
  return jsLiteral(value);
}

/** A member with the comments written above it, on lines of their own (in a multi-line literal; one line has no room). */
function withComments(comments: string[], text: string, multiline: boolean, indent: string): string {
  return multiline && comments.length > 0 ? `${comments.join(`\n${indent}`)}\n${indent}${text}` : text;
}

function layout(parts: string[], open: string, close: string, multiline: boolean, indent: string, inner: string): string {
  if (parts.length === 0) return `${open}${close}`;
  if (multiline) return `${open}\n${parts.map((part) => `${inner}${part},`).join("\n")}\n${indent}${close}`;
  return open === "{" ? `{ ${parts.join(", ")} }` : `[${parts.join(", ")}]`;
}

function lineIndent(document: TextDocument, line: number): string {
  const text = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return /^[ \t]*/.exec(text)?.[0] ?? "";
}

/** Text inserted after `last` (an item of a sequence opened at `open`): on its own line when the sequence is. */
function appendItem(document: TextDocument, open: Position, last: Range | undefined, at: Position, item: string): TextEdit {
  if (!last) return { range: { start: at, end: at }, newText: item };
  const multiline = last.start.line !== open.line;
  return { range: { start: at, end: at }, newText: multiline ? `,\n${lineIndent(document, last.start.line)}${item}` : `, ${item}` };
}

/** Edits that import `name` from `module`, unless the file already does. */
export function ensureImport(document: TextDocument, model: StaticTestFile, module: string, name: string): TextEdit[] {
  if (model.imports[module]?.includes(name)) return [];
  const text = document.getText();
  const escaped = module.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const named = new RegExp(`import\\s+(?:type\\s+)?(?:[A-Za-z_$][\\w$]*\\s*,\\s*)?\\{([^}]*)\\}\\s*from\\s*(['"])${escaped}\\2`).exec(text);
  if (named) {
    const inside = named[1]!;
    const braceOffset = named.index + named[0].indexOf("{") + 1;
    const trimmed = inside.replace(/\s+$/, "");
    const hasTrailingComma = trimmed.endsWith(",");
    const offset = braceOffset + trimmed.length;
    const position = document.positionAt(offset);
    const newText = trimmed.trim() === "" ? ` ${name} ` : hasTrailingComma ? ` ${name},` : `, ${name}`;
    return [{ range: { start: position, end: position }, newText }];
  }
  // A new import line after the last import (or at the top).
  const imports = [...text.matchAll(/^import\b[\s\S]*?from\s*['"][^'"]+['"];?[ \t]*$/gm)];
  const lastImport = imports.at(-1);
  const offset = lastImport ? lastImport.index + lastImport[0].length : 0;
  const position = document.positionAt(offset);
  const line = `import { ${name} } from ${JSON.stringify(module)};`;
  return [{ range: { start: position, end: position }, newText: lastImport ? `\n${line}` : `${line}\n` }];
}

function testingModule(model: StaticTestFile): string {
  return TESTING_MODULES.find((module) => model.imports[module]) ?? TESTING_MODULES[0]!;
}

/** The entry texts for a turn (core's choice, problemFixes.ts) and the imports each needs. */
function entryChoices(document: TextDocument, model: StaticTestFile, schema: unknown, named: NamedSchema | undefined) {
  const testing = testingModule(model);
  return entryTexts(schema, named).map((choice) => {
    const imports = ensureImport(document, model, testing, choice.kind);
    if (choice.kind === "answer" && named && schema !== undefined) imports.push(...ensureImport(document, model, named.module, named.name));
    return { text: choice.text, imports, preferred: choice.preferred };
  });
}

/** Fixes for a turn past the end of `script`'s list: append an entry for it. */
export function addEntryFixes(
  document: TextDocument,
  model: StaticTestFile,
  script: StaticScript,
  agent: string,
  turn: number,
  schema: unknown,
  named: NamedSchema | undefined,
): Fix[] {
  const list = listOf(script);
  if (!list.listEnd) return [];
  const last = list.entries.at(-1)?.range;
  return entryChoices(document, model, schema, named).map((choice) => ({
    title: fixTitles.addEntry(choice.text, agent, turn),
    edits: [...choice.imports, appendItem(document, list.start, last, list.listEnd!, choice.text)],
    preferred: choice.preferred,
  }));
}

/** Fixes for an agent no script met: add `agent: entry` to the call's agents (creating them if needed). */
export function addScriptFixes(
  document: TextDocument,
  model: StaticTestFile,
  call: StaticTestWorkflowCall,
  agent: string,
  schema: unknown,
  named: NamedSchema | undefined,
): Fix[] {
  return entryChoices(document, model, schema, named).flatMap((choice) => {
    const edit = addScriptProperty(document, call, "agents", call.agents, `${propertyName(agent)}: ${choice.text}`);
    return edit ? [{ title: fixTitles.addScript(agent, choice.text), edits: [...choice.imports, edit], preferred: choice.preferred }] : [];
  });
}

/** The fix for a decision no script met: add `"key": { question: answer, … }` to the call's decisions (creating them if needed). */
export function addDecisionScriptFixes(document: TextDocument, call: StaticTestWorkflowCall, key: string, questions: Readonly<Record<string, Question>>): Fix[] {
  const script = decisionScriptText(questions);
  const edit = addScriptProperty(document, call, "decisions", call.decisions, `${JSON.stringify(key)}: ${script}`);
  return edit ? [{ title: fixTitles.addDecisionScript(key, script), edits: [edit], preferred: true }] : [];
}

/** The edit adding `property` to a keyed option's object, or the option itself to the call's options. */
function addScriptProperty(
  document: TextDocument,
  call: StaticTestWorkflowCall,
  option: string,
  scripts: StaticScripts | undefined,
  property: string,
): TextEdit | undefined {
  if (scripts) {
    const last = scripts.scripts.at(-1)?.propertyRange;
    return last ? appendItem(document, scripts.objectRange.start, last, last.end, property) : { range: scripts.objectRange, newText: `{ ${property} }` };
  }
  if (call.optionsRange) {
    const last = call.options.at(-1)?.propertyRange;
    return last
      ? appendItem(document, call.optionsRange.start, last, last.end, `${option}: { ${property} }`)
      : { range: call.optionsRange, newText: `{ ${option}: { ${property} } }` };
  }
  if (call.workflowRange) {
    const at = call.workflowRange.end;
    return { range: { start: at, end: at }, newText: `, { ${option}: { ${property} } }` };
  }
  return undefined;
}

function sameEdit(left: TextEdit, right: TextEdit): boolean {
  return left.newText === right.newText && sameRange(left.range, right.range);
}

export function dedupe(edits: TextEdit[]): TextEdit[] {
  return edits.filter((edit, index) => edits.findIndex((other) => sameEdit(edit, other)) === index);
}

function overlaps(left: TextEdit, right: TextEdit): boolean {
  // Two insertions at one point are fine (applied in order); a deletion overlapping anything is not.
  return positionBefore(left.range.start, right.range.end) && positionBefore(right.range.start, left.range.end);
}

/** Edits of several fixes together, skipping a fix that would overlap an earlier one. */
export function combineFixes(fixes: Fix[]): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const fix of fixes) {
    const fresh = fix.edits.filter((edit) => !edits.some((taken) => sameEdit(taken, edit)));
    if (fresh.some((edit) => edits.some((taken) => overlaps(taken, edit)))) continue;
    edits.push(...fresh);
  }
  return edits;
}
