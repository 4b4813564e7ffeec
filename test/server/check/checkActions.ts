// checkActions: the quick fixes offered over each range annotated `action: title` (or
// `action[preferred]: title`) are exactly those, in order; checkActionResult applies one and
// compares the text with the fixture written as it should read after.
import { TextDocument } from "vscode-languageserver-textdocument";
import type { CodeAction, Range } from "vscode-languageserver-protocol";
import { parseFixture, type Annotation } from "./annotations.ts";
import { compareAnnotations, scopeFilter, type CheckScope } from "./compareAnnotations.ts";
import type { OpenedFixture } from "./openFixture.ts";
import { textDiff } from "./textDiff.ts";

const isAction = (annotation: Annotation) => annotation.tag === "action" || annotation.tag.startsWith("action[");
const key = (range: Range) => `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;

function requestActions(opened: OpenedFixture, range: Range, only?: string[]): Promise<CodeAction[]> {
  const context = { diagnostics: opened.diagnostics, ...(only ? { only } : {}) };
  return opened.server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri: opened.uri }, range, context });
}

/** The actions over each annotated range (in the scope) are the annotated ones. */
export async function checkActions(opened: OpenedFixture, scope: CheckScope = {}): Promise<void> {
  const ranges = new Map<string, Range>();
  for (const annotation of opened.fixture.annotations.filter(isAction).filter(scopeFilter(opened.fixture.text, scope)))
    ranges.set(key(annotation.range), annotation.range);
  if (ranges.size === 0) throw new Error("checkActions: the fixture has no action annotation to ask over (in the scope)");
  const actual: Annotation[] = [];
  for (const range of ranges.values()) {
    for (const action of await requestActions(opened, range)) {
      actual.push({ range, tag: action.isPreferred ? "action[preferred]" : "action", text: action.title });
    }
  }
  compareAnnotations(opened.fixture, { check: "checkActions", isMine: isAction, actual }, scope);
}

/**
 * Applies the action titled `title`, asked over the range of the one `action` annotation with that
 * title (or, given `only`, over the whole file for those kinds: a fix-all), and compares the text
 * with `after` (itself a fixture: its annotations are taken out).
 */
export async function checkActionResult(opened: OpenedFixture, title: string, after: string, options: { only?: string[] } = {}): Promise<void> {
  let actions: CodeAction[];
  if (options.only) {
    // A source action (fix all) is asked over the whole file, of the kinds given.
    const lines = opened.fixture.text.split("\n");
    const whole = { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: (lines.at(-1) ?? "").length } };
    actions = await requestActions(opened, whole, options.only);
  } else {
    const [annotation, ...others] = opened.fixture.annotations.filter((found) => isAction(found) && found.text === title);
    if (!annotation || others.length > 0)
      throw new Error(`checkActionResult: the fixture needs one action annotation titled ${JSON.stringify(title)}, not ${others.length + (annotation ? 1 : 0)}`);
    actions = await requestActions(opened, annotation.range);
  }
  const action = actions.find((found) => found.title === title);
  if (!action) throw new Error(`checkActionResult: no action titled ${JSON.stringify(title)} there; offered: ${JSON.stringify(actions.map((found) => found.title))}`);
  const changes = action.edit?.changes ?? {};
  const elsewhere = Object.keys(changes).filter((uri) => uri !== opened.uri);
  if (elsewhere.length > 0 || action.edit?.documentChanges)
    throw new Error(`checkActionResult: ${JSON.stringify(title)} edits other files or uses documentChanges: ${JSON.stringify(action.edit)}`);
  const document = TextDocument.create(opened.uri, "typescript", 1, opened.fixture.text);
  const result = TextDocument.applyEdits(document, changes[opened.uri] ?? []);
  const expected = parseFixture(after).text;
  if (result !== expected) {
    throw new Error(`checkActionResult: ${JSON.stringify(title)} leaves another text than the one after (- written, + the server's):\n${textDiff(expected, result)}`);
  }
}

/** `text` with each `[from, to]` replaced, each `from` required to occur exactly once: the text an action should leave. */
export function rewritten(text: string, ...replacements: Array<[string, string]>): string {
  return replacements.reduce((result, [from, to]) => {
    const count = result.split(from).length - 1;
    if (count !== 1) throw new Error(`rewritten: ${JSON.stringify(from)} occurs ${count} times, not once`);
    return result.replace(from, () => to);
  }, text);
}
