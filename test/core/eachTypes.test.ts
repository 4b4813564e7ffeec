// What `tsc` checks of `test.each` and `describe.each`: rows typed as Vitest types them, so a test
// Vitest accepts type-checks here too. Each `@ts-expect-error` line must be a type error (npm run
// typecheck fails on one that isn't), and every row also runs, recording the cells it was given.

import { describe, expect, test } from "bun:test";

const seen: unknown[][] = [];

test.each([
  ["a", 1, true],
  ["b", 2, false],
])("an array row is a tuple: %s, %i and %s", (name, count, flag) => {
  // Each cell has its column's type, not `string | number | boolean`.
  const row: [string, number, boolean] = [name, count, flag];
  // @ts-expect-error the first cell is a string
  const wrong: number = name;
  seen.push(["tuple", ...row, wrong]);
});

test.each([
  ["a", 1],
  ["b", 2],
] as const)("a readonly row (as const) gives its elements: %s and %i", (letter, count) => {
  const row: ["a" | "b", 1 | 2] = [letter, count];
  // @ts-expect-error "c" is no letter of the table
  const other: typeof letter = "c";
  seen.push(["const", ...row, other]);
});

test.each([{ word: "turn" }, { word: "lens" }])("an object row is the one argument: $word", ({ word }) => {
  const length: number = word.length;
  seen.push(["object", word, length]);
});

test.each([1, 2])("a primitive row is the one argument: %i", (n) => {
  seen.push(["primitive", n.toFixed(1)]);
});

test.each([[3, "x"]])("options may come before the body, as test's do: %i %s", { timeout: 5_000 }, (n, text) => {
  seen.push(["options first", n + 1, text.toUpperCase()]);
});

describe.each([
  ["outer", 1],
  ["inner", 2],
])("describe.each's rows are tuples too: %s", (label, depth) => {
  test("gets its row", () => {
    const row: [string, number] = [label, depth];
    seen.push(["describe", ...row]);
  });
});

test("every row ran with its cells as given", () => {
  expect(seen).toEqual([
    ["tuple", "a", 1, true, "a"],
    ["tuple", "b", 2, false, "b"],
    ["const", "a", 1, "c"],
    ["const", "b", 2, "c"],
    ["object", "turn", 4],
    ["object", "lens", 4],
    ["primitive", "1.0"],
    ["primitive", "2.0"],
    ["options first", 4, "X"],
    ["describe", "outer", 1],
    ["describe", "inner", 2],
  ]);
});
