// The file's imports: every local name by module specifier, and which local names stand for the
// testing API (testWorkflow, answer, noAnswer) and the test API (test, it, describe), aliases included.

import ts from "./typescript.ts";

/** Modules whose `testWorkflow`, `answer` and `noAnswer` are Turnlens's. */
export const TESTING_MODULES = new Set(["agentswf/testing", "turnlens/testing"]);
/** Modules whose `test`, `it`, `describe` and `suite` declare tests for the runner. */
export const TEST_API_MODULES = new Set(["bun:test", "vitest", "@jest/globals"]);

export type TestingApiName = "testWorkflow" | "answer" | "noAnswer";
export type TestApiName = "test" | "it" | "describe" | "suite";

const TESTING_API_NAMES = new Set<string>(["testWorkflow", "answer", "noAnswer"]);
const TEST_API_NAMES = new Set<string>(["test", "it", "describe", "suite"]);

export interface ImportBinding {
  local: string;
  /** The exported name, `default` for a default import, `*` for a namespace import. */
  imported: string;
  module: string;
}

export interface ImportBindings {
  /** Local names imported from each module specifier, in source order. */
  byModule: Record<string, string[]>;
  byLocalName: Map<string, ImportBinding>;
  /** What a local name stands for in the testing API: `tw` for `testWorkflow as tw`. */
  testingRoleOf(localName: string): TestingApiName | undefined;
  /** What a local name stands for in the test API: `t` for `test as t`. */
  testApiRoleOf(localName: string): TestApiName | undefined;
  /** Whether a local name is `import * as name` of a testing module. */
  isTestingNamespace(localName: string): boolean;
  /** Whether a local name is `import * as name` of a test API module. */
  isTestApiNamespace(localName: string): boolean;
}

/**
 * Reads the top-level imports. A canonical name (`answer`, `test`...) is recognised even when it
 * isn't imported from a known module (a helper may re-export it, or the runner may provide it as a
 * global); an alias is recognised only when imported from a known module.
 */
export function readImportBindings(sourceFile: ts.SourceFile): ImportBindings {
  const byModule: Record<string, string[]> = {};
  const byLocalName = new Map<string, ImportBinding>();
  const testingAliases = new Map<string, TestingApiName>();
  const testApiAliases = new Map<string, TestApiName>();
  const testingNamespaces = new Set<string>();
  const testApiNamespaces = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = statement.moduleSpecifier.text;
    const names = (byModule[module] ??= []);
    const clause = statement.importClause;
    if (!clause) continue;
    const add = (local: string, imported: string) => {
      names.push(local);
      byLocalName.set(local, { local, imported, module });
      if (TESTING_MODULES.has(module)) {
        if (imported === "*") testingNamespaces.add(local);
        else if (TESTING_API_NAMES.has(imported)) testingAliases.set(local, imported as TestingApiName);
      }
      if (TEST_API_MODULES.has(module)) {
        if (imported === "*") testApiNamespaces.add(local);
        else if (TEST_API_NAMES.has(imported)) testApiAliases.set(local, imported as TestApiName);
      }
    };
    if (clause.name) add(clause.name.text, "default");
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) add(bindings.name.text, "*");
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) add(element.name.text, (element.propertyName ?? element.name).text);
    }
  }
  return {
    byModule,
    byLocalName,
    testingRoleOf(localName) {
      const alias = testingAliases.get(localName);
      if (alias) return alias;
      if (!TESTING_API_NAMES.has(localName)) return undefined;
      // `import { answer as testWorkflow }` would make the name mean something else.
      const binding = byLocalName.get(localName);
      if (binding && TESTING_MODULES.has(binding.module)) return undefined;
      return localName as TestingApiName;
    },
    testApiRoleOf(localName) {
      const alias = testApiAliases.get(localName);
      if (alias) return alias;
      if (!TEST_API_NAMES.has(localName)) return undefined;
      const binding = byLocalName.get(localName);
      if (binding && TEST_API_MODULES.has(binding.module)) return undefined;
      return localName as TestApiName;
    },
    isTestingNamespace: (localName) => testingNamespaces.has(localName),
    isTestApiNamespace: (localName) => testApiNamespaces.has(localName),
  };
}

/** The role of a member of a namespace import: `testing.answer` → `answer`. */
export function testingRoleOfMember(name: string): TestingApiName | undefined {
  return TESTING_API_NAMES.has(name) ? (name as TestingApiName) : undefined;
}

export function testApiRoleOfMember(name: string): TestApiName | undefined {
  return TEST_API_NAMES.has(name) ? (name as TestApiName) : undefined;
}
