// checkHints: the inlay hints of a fixture are exactly its `hint: label` annotations. Turnlens puts a
// hint at the end of its line, so a hint's carets mark what it is about, anywhere on that line; on a
// line too long to see its end (runHints.ts), a `|` marks where it stands.
import type { InlayHint } from "vscode-languageserver-protocol";
import type { Annotation } from "./annotations.ts";
import { compareAnnotations, type CheckScope } from "./compareAnnotations.ts";
import type { OpenedFixture } from "./openFixture.ts";

const WHOLE = { start: { line: 0, character: 0 }, end: { line: 100_000, character: 0 } };

function label(hint: InlayHint): string {
  return typeof hint.label === "string" ? hint.label : hint.label.map((part) => part.value).join("");
}

/** The fixture's inlay hints (in the scope) are the annotated ones. */
export async function checkHints(opened: OpenedFixture, scope: CheckScope = {}): Promise<void> {
  const hints = await opened.server.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri: opened.uri }, range: WHOLE });
  const lines = opened.fixture.text.split("\n");
  const actual = hints.map((hint): Annotation => {
    // At the end of its line it is written under the whole line; anywhere else as a `|` where it is.
    const line = lines[hint.position.line] ?? "";
    const indent = line.search(/\S/);
    const atEnd = hint.position.character === line.replace(/\r$/, "").length && indent >= 0;
    return { range: { start: { line: hint.position.line, character: atEnd ? indent : hint.position.character }, end: hint.position }, tag: "hint", text: label(hint) };
  });
  const onItsLine = (written: Annotation, found: Annotation) =>
    written.tag === found.tag &&
    written.range.start.line === found.range.start.line &&
    written.range.end.line === found.range.start.line &&
    found.range.end.character === (lines[found.range.start.line] ?? "").replace(/\r$/, "").length;
  compareAnnotations(
    opened.fixture,
    {
      check: "checkHints",
      isMine: (annotation) => annotation.tag === "hint",
      actual,
      // Written anywhere on the line of a hint at that line's end.
      matches: (written, found) => written.text === found.text && onItsLine(written, found),
      writtenLike: onItsLine,
    },
    scope,
  );
}
