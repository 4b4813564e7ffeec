// What every check shares: the annotations of one tag family, as written and as the server gave
// them, both written back into the fixture's text and compared, failing with a diff of the two.
import { linesOfTest, renderFixture, type Annotation, type Fixture } from "./annotations.ts";
import { textDiff } from "./textDiff.ts";

/** Which part of the fixture a check looks at. */
export interface CheckScope {
  /** Only the lines of the test with this name (its `test("…"` line to its `});`). */
  test?: string;
}

export interface Comparison {
  /** The check's name, first in its failure message. */
  check: string;
  /** Which written annotations this check compares. */
  isMine: (annotation: Annotation) => boolean;
  /** The server's results, as annotations. */
  actual: Annotation[];
  /**
   * Whether a written annotation stands for an actual one; the actual one is then written as it was
   * (a hint's carets may start anywhere: only where they end is its position). Default: equal.
   */
  matches?: (written: Annotation, actual: Annotation) => boolean;
  /**
   * Whether an actual result that matches nothing is written in the range of this written
   * annotation, so the diff shows only what differs (a hint's label, not its carets).
   */
  writtenLike?: (written: Annotation, actual: Annotation) => boolean;
}

const equal = (left: Annotation, right: Annotation) =>
  left.tag === right.tag &&
  left.text === right.text &&
  left.range.start.line === right.range.start.line &&
  left.range.start.character === right.range.start.character &&
  left.range.end.line === right.range.end.line &&
  left.range.end.character === right.range.end.character;

/** Whether an annotation is in the scope's lines of the text. */
export function scopeFilter(text: string, scope: CheckScope): (annotation: Annotation) => boolean {
  const lines = scope.test ? linesOfTest(text, scope.test) : undefined;
  return (annotation) => !lines || (annotation.range.start.line >= lines.from && annotation.range.start.line <= lines.to);
}

/** Throws, with the annotated text as written and as the server gave it, when they differ. */
export function compareAnnotations(fixture: Fixture, comparison: Comparison, scope: CheckScope = {}): void {
  const { text, annotations } = fixture;
  const inScope = scopeFilter(text, scope);
  const written = annotations.filter((annotation) => comparison.isMine(annotation) && inScope(annotation));
  // A scope with nothing written would pass on nothing: say so instead.
  if (scope.test && written.length === 0) throw new Error(`${comparison.check}: nothing is written for it in test ${JSON.stringify(scope.test)}`);
  const matches = comparison.matches ?? equal;
  const unused = new Set(written);
  const found = comparison.actual.filter(inScope);
  const actual = found.map((result) => {
    const same = [...unused].find((annotation) => matches(annotation, result));
    if (!same) return result;
    unused.delete(same);
    return same;
  });
  const writtenLike = comparison.writtenLike;
  if (writtenLike) {
    actual.forEach((annotation, index) => {
      const result = found[index];
      if (!result || annotation !== result) return;
      const like = [...unused].find((written) => writtenLike(written, result));
      if (!like) return;
      unused.delete(like);
      actual[index] = { ...result, range: like.range };
    });
  }
  const expectedText = renderFixture(text, written);
  const actualText = renderFixture(text, actual);
  if (expectedText === actualText) return;
  const where = scope.test ? ` in test ${JSON.stringify(scope.test)}` : "";
  throw new Error(`${comparison.check}${where}: the server's results differ from the annotations (- written, + the server's):\n${textDiff(expectedText, actualText)}`);
}
