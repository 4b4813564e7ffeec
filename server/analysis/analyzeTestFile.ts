// The static pass over one test file: a single walk of its syntax tree (no type checker) that
// finds the tests, the testWorkflow calls with their scripts and entries, and the mistakes visible
// without a run. The language server calls it on every change, so it parses once and walks once.

import ts from "./typescript.ts";
import { ConstDeclarations } from "./constDeclarations.ts";
import { readImportBindings } from "./importBindings.ts";
import type { StaticEntry, StaticProblem, StaticTest, StaticTestFile, StaticTestWorkflowCall } from "./model.ts";
import { rangeBetween, rangeOfNode } from "./ranges.ts";
import { entryCallOf, looseEntryOf, type AnalysisContext, type EntryCall } from "./scriptEntries.ts";
import { addProblems, problemsOfOptionsAfterWalk } from "./staticProblems.ts";
import { readTestDeclaration, testNameOf, type TestDeclaration } from "./testDeclarations.ts";
import { readTestWorkflowCall, testWorkflowCalleeOf } from "./testWorkflowCalls.ts";
import { DEPTH_LIMIT } from "../limits.ts";
import { fileTooDeepNotice, flattenTooDeep, isTooDeep, tooDeepNotices, TooDeepError } from "./tooDeep.ts";

export { callAtSite, entriesAtSite, entriesOfScript, entryAtSite, entryByKey, looseEntryAtSite, scriptsOfOption, testAt, testAtSite } from "./siteLookup.ts";
export type { EntryAtSite } from "./siteLookup.ts";

/**
 * Never overflows the stack: code nested past DEPTH_LIMIT (or too deep for TypeScript's parser) is
 * blanked out and the rest analysed, with a `too-deep` notice where it was (tooDeep.ts).
 */
export function analyzeTestFile(fileName: string, text: string): StaticTestFile {
  try {
    return analyzeSourceFile(parseTestFile(fileName, text));
  } catch (error) {
    if (!isTooDeep(error)) throw error;
  }
  const parse = (flattened: string) => parseTestFile(fileName, flattened);
  const flattened = flattenTooDeep(text, parse);
  if (flattened) {
    try {
      const sourceFile = parse(flattened.text);
      const model = analyzeSourceFile(sourceFile);
      model.problems.push(...tooDeepNotices(sourceFile, flattened.regions));
      return model;
    } catch (error) {
      if (!isTooDeep(error)) throw error;
    }
  }
  return { tests: [], calls: [], problems: [fileTooDeepNotice(text)], imports: {}, looseEntries: [] };
}

/**
 * Parses a test file as the static pass needs it: no parent pointers (setting them is a second
 * walk of the whole tree, a third of the parse's cost) and no JSDoc, as the walk reads no comments.
 */
export function parseTestFile(fileName: string, text: string): ts.SourceFile {
  const options = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };
  return ts.createSourceFile(fileName, text, options, false, scriptKindOf(fileName));
}

/**
 * The static pass over a file already parsed, with or without parent pointers. Throws
 * TooDeepError on a node deeper than DEPTH_LIMIT (analyzeTestFile handles that).
 */
export function analyzeSourceFile(sourceFile: ts.SourceFile): StaticTestFile {
  const bindings = readImportBindings(sourceFile);
  const context: AnalysisContext = {
    sourceFile,
    bindings,
    constants: new ConstDeclarations(),
    afterWalk: [],
    claimedEntryOffsets: new Set(),
  };
  const tests: StaticTest[] = [];
  const calls: StaticTestWorkflowCall[] = [];
  const problems: StaticProblem[] = [];
  const entryCalls: EntryCall[] = [];

  // The walk's place, kept in variables rather than passed along, so that visiting a node makes
  // no closure: the parent of the node visited, the innermost describe, the innermost test or describe.
  let parent: ts.Node = sourceFile;
  let describeIndex: number | undefined;
  let testIndex: number | undefined;
  // The depth of the node visited (the file is 0): the walk recurses, so it stops at the limit.
  let depth = 0;

  const visitChildren = (node: ts.Node): void => {
    const outerParent = parent;
    parent = node;
    depth++;
    ts.forEachChild(node, visit);
    depth--;
    parent = outerParent;
  };

  const visit = (node: ts.Node): void => {
    // Types hold no calls.
    if (ts.isTypeNode(node)) return;
    if (depth > DEPTH_LIMIT) throw new TooDeepError();
    if (ts.isVariableStatement(node)) context.constants.add(node, parent);
    if (ts.isCallExpression(node)) {
      const declaration = readTestDeclaration(sourceFile, node, bindings);
      if (declaration) {
        visitTestDeclaration(node, declaration);
        return;
      }
      const calleeName = testWorkflowCalleeOf(bindings, node);
      if (calleeName) {
        const { call, optionsObject } = readTestWorkflowCall(context, node, calleeName);
        if (testIndex !== undefined) call.testIndex = testIndex;
        calls.push(call);
        if (optionsObject) {
          context.afterWalk.push(() => addProblems(problems, problemsOfOptionsAfterWalk(context, optionsObject)));
        }
      } else {
        const entryCall = entryCallOf(bindings, node);
        if (entryCall) entryCalls.push(entryCall);
      }
    }
    visitChildren(node);
  };

  const visitTestDeclaration = (node: ts.CallExpression, declaration: TestDeclaration): void => {
    const { name, namePattern } = testNameOf(sourceFile, declaration);
    const enclosingDescribe = describeIndex !== undefined ? tests[describeIndex] : undefined;
    const test: StaticTest = {
      kind: declaration.kind,
      name,
      path: enclosingDescribe ? [...enclosingDescribe.path, name] : [name],
      range: rangeOfNode(sourceFile, node),
      calleeRange: rangeBetween(sourceFile, declaration.calleeStart, declaration.calleeEnd),
    };
    if (declaration.modifier) test.modifier = declaration.modifier;
    if (namePattern) test.namePattern = namePattern;
    if (describeIndex !== undefined) test.parent = describeIndex;
    const index = tests.push(test) - 1;
    const outer = { parent, describeIndex, testIndex };
    parent = node;
    depth++;
    // The callee holds `.each` tables and `.if` conditions: they run outside the test.
    visit(node.expression);
    if (declaration.kind === "describe") describeIndex = index;
    testIndex = index;
    for (const argument of node.arguments) visit(argument);
    depth--;
    ({ parent, describeIndex, testIndex } = outer);
  };

  visitChildren(sourceFile);

  // Following names may add more work (a list of names), so the queue is read as it grows.
  for (let index = 0; index < context.afterWalk.length; index++) context.afterWalk[index]!();
  const looseEntries: StaticEntry[] = entryCalls
    .filter((entryCall) => !context.claimedEntryOffsets.has(entryCall.call.getStart(sourceFile)))
    .map((entryCall) => looseEntryOf(sourceFile, entryCall));

  return { tests, calls, problems, imports: bindings.byModule, looseEntries };
}

function scriptKindOf(fileName: string): ts.ScriptKind {
  if (/\.tsx$/i.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.jsx$/i.test(fileName)) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/i.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}
