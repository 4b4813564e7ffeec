// The one table of noAnswer kinds (core/testing/noAnswerKinds.ts) against what cannot be derived
// from it: entries.ts's doc comments, the methods' arguments, the recorded ends' one kind each, and
// the pages that list the methods. tsc checks the rest (every field of every kind, noAnswer's methods).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { noAnswer } from "agentswf/testing";
import { NO_ANSWER_KIND_RECORDED_AS, NO_ANSWER_KINDS, type NoAnswerKind } from "../../core/testing/noAnswerKinds.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const KINDS = Object.keys(NO_ANSWER_KINDS) as NoAnswerKind[];
const METHODS = Object.values(NO_ANSWER_KINDS).map((kind) => kind.method);

/** Each method of the `noAnswer` object in entries.ts, with its doc comment's text, in the order written. */
function documentedMethods(): Array<{ method: string; docs: string }> {
  const file = join(ROOT, "core/testing/entries.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  let methods: Array<{ method: string; docs: string }> | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === "noAnswer" && node.initializer) {
      const initializer = ts.isSatisfiesExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (!ts.isObjectLiteralExpression(initializer)) throw new Error("entries.ts's noAnswer is not an object literal");
      methods = initializer.properties.map((property) => ({
        method: property.name && ts.isIdentifier(property.name) ? property.name.text : property.getText(source),
        docs: ts
          .getJSDocCommentsAndTags(property)
          .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? "")
          .join("\n"),
      }));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!methods) throw new Error("entries.ts declares no noAnswer object");
  return methods;
}

describe("the noAnswer kinds' table", () => {
  test("noAnswer has a method per kind, in the table's order, each documented by its kind's docs line", () => {
    expect(Object.keys(noAnswer)).toEqual(METHODS);
    expect(documentedMethods()).toEqual(Object.values(NO_ANSWER_KINDS).map(({ method, docs }) => ({ method, docs })));
  });

  test("a method with a default reason gives it or the test's, and one without takes no reason", () => {
    for (const kind of KINDS) {
      const { method, defaultReason } = NO_ANSWER_KINDS[kind];
      const make = noAnswer[method] as (argument?: string) => { kind: string; reason?: string };
      expect({ kind, entry: make().kind, reason: make().reason }).toEqual({ kind, entry: kind, reason: defaultReason });
      expect({ kind, reason: make("the test's reason").reason }).toEqual({ kind, reason: defaultReason === undefined ? undefined : "the test's reason" });
    }
  });

  test("each recorded end but an answer is written back as exactly one kind", () => {
    const claimed = KINDS.flatMap((kind) => (NO_ANSWER_KINDS[kind].recordedEnd === undefined ? [] : [NO_ANSWER_KINDS[kind].recordedEnd]));
    expect(claimed.filter((end, index) => claimed.indexOf(end) !== index)).toEqual([]);
    expect(NO_ANSWER_KIND_RECORDED_AS).toEqual({ silent: "silent", blocked: "blocked", failed: "failed", "timed-out": "timed-out", cancelled: "hang" });
  });

  test("each kind's mutant is another kind", () => {
    expect(KINDS.filter((kind) => NO_ANSWER_KINDS[kind].mutant === kind)).toEqual([]);
  });

  test("the pages that list noAnswer's methods list each of them", () => {
    const completion = readFileSync(join(ROOT, "docs/writing-answers.md"), "utf8")
      .split("\n")
      .find((line) => line.startsWith("| after `noAnswer.` |"));
    expect(completion?.match(/\(([^)]*)\)/)?.[1]?.split(", ")).toEqual(METHODS.map((method) => `\`${method}\``));
    const mutants = readFileSync(join(ROOT, "docs/mutate.md"), "utf8")
      .split("\n")
      .find((line) => line.includes("**the `noAnswer` that gives another outcome**"));
    expect(METHODS.filter((method) => !mutants?.includes(`\`${method}\``) && !mutants?.includes(`\`noAnswer.${method}()\``))).toEqual([]);
  });
});
