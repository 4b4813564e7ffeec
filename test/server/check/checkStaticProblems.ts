// checkStaticProblems: the problems the static pass finds in a fixture's text, with no server and
// no run, are exactly its `problem[code, option "…", key "…", index n]: message` annotations.
import { analyzeTestFile } from "../../../server/analysis/analyzeTestFile.ts";
import type { StaticProblem } from "../../../server/analysis/model.ts";
import { parseFixture, type Annotation, type Fixture } from "./annotations.ts";
import { compareAnnotations } from "./compareAnnotations.ts";

const FIELDS = ["option", "key", "index", "suggestion"];

/** A static problem as an annotation: its code then each field it has, in a fixed order. */
export function staticProblemAnnotation(problem: StaticProblem): Annotation {
  const { code, message, range, ...fields } = problem;
  const entries = Object.entries(fields as Record<string, unknown>)
    .filter(([, value]) => value !== undefined)
    .sort(([left], [right]) => (FIELDS.indexOf(left) + 1 || 99) - (FIELDS.indexOf(right) + 1 || 99) || left.localeCompare(right));
  return { range, tag: `problem[${[code, ...entries.map(([name, value]) => `${name} ${JSON.stringify(value)}`)].join(", ")}]`, text: message };
}

/** The static problems of the annotated text are the annotated ones; returns the fixture for more checks. */
export function checkStaticProblems(annotated: string, fileName = "inline.test.ts"): Fixture {
  const fixture = parseFixture(annotated);
  const actual = analyzeTestFile(fileName, fixture.text).problems.map(staticProblemAnnotation);
  compareAnnotations(fixture, { check: "checkStaticProblems", isMine: (annotation) => annotation.tag.startsWith("problem["), actual });
  return fixture;
}
