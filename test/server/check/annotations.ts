// Annotated fixtures: reads the expected results written under the lines of a fixture's text
// (`//   ^^^^ hint: writer · turn 1 answered`) and writes results back the same way, for a diff. Syntax: README.md.
import type { Range } from "vscode-languageserver-protocol";

/** One expected or actual result: where it is, what kind (`hint`, `error[list-exhausted]`, …) and its text. */
export interface Annotation {
  range: Range;
  tag: string;
  text: string;
}

/** A fixture with its annotations taken out: `text` is what the server is given. */
export interface Fixture {
  text: string;
  annotations: Annotation[];
}

// An annotation line: optional `//`, markers under the code (carets, or `|` for an empty range) at
// the code's own columns, optionally `…+N:C` (the range ends N lines down at character C), one of
// the tags the checks know and, after a colon, the text.
const ANNOTATION =
  /^(?<lead>\s*(?:\/\/)?\s*)(?<markers>\^+|\|)(?:…\+(?<lines>\d+):(?<character>\d+))? (?<tag>(?:error|warning|info|help|related|problem|hint|hover|nohover|lens|action)(?:\[[^\]]*\])?)(?:: (?<text>.*))?$/;
// A continuation line: `|` under the first marker of the annotation above it, then a line of its text.
const CONTINUATION = /^(?<lead>\s*(?:\/\/)?\s*)\|(?: (?<text>.*))?$/;

/** Takes the annotations out of an annotated fixture; a malformed one is an error naming its line. */
export function parseFixture(annotated: string): Fixture {
  const code: string[] = [];
  const annotations: Annotation[] = [];
  let previous: { annotation: Annotation; column: number } | undefined;
  annotated.split("\n").forEach((line, index) => {
    const continuation = previous ? CONTINUATION.exec(line) : null;
    if (previous && continuation?.groups && (continuation.groups.lead ?? "").length === previous.column) {
      previous.annotation.text += `\n${continuation.groups.text ?? ""}`;
      return;
    }
    const match = ANNOTATION.exec(line)?.groups;
    if (!match) {
      code.push(line);
      previous = undefined;
      return;
    }
    const codeLine = code.length - 1;
    const above = code[codeLine];
    if (above === undefined) throw new Error(`fixture line ${index + 1}: an annotation needs a line of code above it`);
    const column = (match.lead ?? "").length;
    const markers = match.markers ?? "";
    const empty = markers === "|";
    const end =
      match.lines !== undefined
        ? { line: codeLine + Number(match.lines), character: Number(match.character) }
        : { line: codeLine, character: column + (empty ? 0 : markers.length) };
    if (end.line === codeLine && end.character > above.length) {
      throw new Error(`fixture line ${index + 1}: the markers run past the end of the line above (${above.length} characters)`);
    }
    const annotation: Annotation = { range: { start: { line: codeLine, character: column }, end }, tag: match.tag ?? "", text: match.text ?? "" };
    annotations.push(annotation);
    previous = { annotation, column };
  });
  for (const annotation of annotations) {
    if (annotation.range.end.line >= code.length) throw new Error(`fixture: the range of "${annotation.tag}" ends past the last line`);
  }
  return { text: code.join("\n"), annotations };
}

/** The lines of one annotation, written under line `range.start.line` of `lines`. */
function annotationLines(annotation: Annotation, lines: readonly string[]): string[] {
  const { start, end } = annotation.range;
  const column = start.character;
  let markers: string;
  if (end.line !== start.line) {
    const width = Math.max(0, (lines[start.line] ?? "").length - column);
    markers = `${width > 0 ? "^".repeat(width) : "|"}…+${end.line - start.line}:${end.character}`;
  } else {
    markers = end.character > column ? "^".repeat(end.character - column) : "|";
  }
  // From column 2 on the line reads as a comment; before it there is no room for `//`.
  const lead = column >= 2 ? `//${" ".repeat(column - 2)}` : " ".repeat(column);
  const [first = "", ...rest] = annotation.text.split("\n");
  const head = `${lead}${markers} ${annotation.tag}${annotation.text === "" && rest.length === 0 ? "" : `: ${first}`}`;
  return [head, ...rest.map((line) => (line === "" ? `${lead}|` : `${lead}| ${line}`))];
}

/** The text with each annotation written under its line, in the order given for one line. */
export function renderFixture(text: string, annotations: readonly Annotation[]): string {
  const lines = text.split("\n");
  const out: string[] = [];
  lines.forEach((line, index) => {
    out.push(line);
    for (const annotation of annotations) if (annotation.range.start.line === index) out.push(...annotationLines(annotation, lines));
  });
  return out.join("\n");
}

/** The lines of the test named `name` in the text: from its `test("name"` line to its closing `});` at the start of a line. */
export function linesOfTest(text: string, name: string): { from: number; to: number } {
  const lines = text.split("\n");
  const quoted = [JSON.stringify(name), `'${name}'`, `\`${name}\``];
  const from = lines.findIndex((line) => quoted.some((written) => line.includes(`(${written}`)));
  if (from < 0) throw new Error(`the fixture has no test named ${JSON.stringify(name)}`);
  const close = lines.findIndex((line, index) => index > from && line.startsWith("})"));
  return { from, to: close < 0 ? lines.length - 1 : close };
}
