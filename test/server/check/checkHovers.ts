// checkHovers: for each `hover: markdown` annotation, the hover asked at the start of its carets has
// exactly that range and text; `nohover` asks there and expects none.
import type { Hover } from "vscode-languageserver-protocol";
import type { Annotation } from "./annotations.ts";
import { compareAnnotations, scopeFilter, type CheckScope } from "./compareAnnotations.ts";
import type { OpenedFixture } from "./openFixture.ts";

export interface HoverScope extends CheckScope {
  /** Applied to each hover's text before comparing: a clock time made constant, say. */
  normalize?: (text: string) => string;
}

function contentsText(contents: Hover["contents"]): string {
  if (typeof contents === "string") return contents;
  if (Array.isArray(contents)) return contents.map((part) => (typeof part === "string" ? part : part.value)).join("\n\n");
  return contents.value;
}

/** Each annotated hover (in the scope) is what the server gives at the start of its range. */
export async function checkHovers(opened: OpenedFixture, scope: HoverScope = {}): Promise<void> {
  const isMine = (annotation: Annotation) => annotation.tag === "hover" || annotation.tag === "nohover";
  const asked = opened.fixture.annotations.filter(isMine).filter(scopeFilter(opened.fixture.text, scope));
  if (asked.length === 0) throw new Error("checkHovers: the fixture has no hover or nohover annotation to ask at (in the scope)");
  const normalize = scope.normalize ?? ((text: string) => text);
  const actual: Annotation[] = [];
  for (const annotation of asked) {
    const position = annotation.range.start;
    const hover = await opened.server.request<Hover | null>("textDocument/hover", { textDocument: { uri: opened.uri }, position });
    if (!hover) actual.push({ range: annotation.range, tag: "nohover", text: "" });
    // A hover with no range is written where it was asked, as an empty range.
    else actual.push({ range: hover.range ?? { start: position, end: position }, tag: "hover", text: normalize(contentsText(hover.contents)) });
  }
  compareAnnotations(opened.fixture, { check: "checkHovers", isMine, actual }, scope);
}
