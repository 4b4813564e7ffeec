// The served `vitest`'s `TestRunner` statics are @vitest/runner's own: what a custom runner sets
// (a test's function, a suite's hooks) is what it gets back.
import { expect, test } from "bun:test";
import type { Suite, Test } from "@vitest/runner";
import { TestRunner } from "../../core/testApi/vitestModule.ts";

test("TestRunner.setTestFn sets the function getTestFn returns", () => {
  const task = {} as Test;
  const fn = () => {};
  TestRunner.setTestFn(task, fn);
  expect(TestRunner.getTestFn(task)).toBe(fn);
});

test("TestRunner.setSuiteHooks sets the hooks getSuiteHooks returns", () => {
  const suite = {} as Suite;
  const hooks = { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [], aroundAll: [], aroundEach: [] };
  TestRunner.setSuiteHooks(suite, hooks as never);
  expect(TestRunner.getSuiteHooks(suite)).toBe(hooks as never);
});
