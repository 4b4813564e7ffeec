// The text edits behind the quick fixes: rename an option, remove entries no turn reached, add the
// entry a turn past a list needed, add a script for an unscripted agent, and import what they name.
// Pure functions over the document text and the static model, so runView.ts can attach them.
import type { Position, Range, TextEdit } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { StaticEntry, StaticScript, StaticTestFile, StaticTestWorkflowCall } from "./analysis/model.ts";
import { positionBefore, sameRange } from "./analysis/ranges.ts";
import { entryChoices as entryTexts, fixTitles, propertyName, type NamedSchema } from "../core/testing/problemFixes.ts";

export type { NamedSchema };

/** One way to fix a diagnostic. */
export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The fix an editor applies first, and the one "fix all" applies. */
  preferred?: boolean;
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
    const property = `${propertyName(agent)}: ${choice.text}`;
    let edit: TextEdit | undefined;
    if (call.agents) {
      const last = call.agents.scripts.at(-1)?.propertyRange;
      edit = last ? appendItem(document, call.agents.objectRange.start, last, last.end, property) : { range: call.agents.objectRange, newText: `{ ${property} }` };
    } else if (call.optionsRange) {
      const last = call.options.at(-1)?.propertyRange;
      edit = last
        ? appendItem(document, call.optionsRange.start, last, last.end, `agents: { ${property} }`)
        : { range: call.optionsRange, newText: `{ agents: { ${property} } }` };
    } else if (call.workflowRange) {
      const at = call.workflowRange.end;
      edit = { range: { start: at, end: at }, newText: `, { agents: { ${property} } }` };
    }
    if (!edit) return [];
    return [{ title: fixTitles.addScript(agent, choice.text), edits: [...choice.imports, edit], preferred: choice.preferred }];
  });
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
