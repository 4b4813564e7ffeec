// `import.meta.glob(...)`'s arguments are read as literals from the syntax tree (core/execution/importMetaGlob.ts),
// never run: a literal is read however long it is or however busy the machine, and anything else is left alone.
import { describe, expect, test } from "bun:test";
import { literalArguments } from "../../core/execution/importMetaGlob.ts";

describe("literalArguments", () => {
  test("strings, arrays and options objects are read, with Vite's usual spellings", () => {
    expect(literalArguments(`["./mods/*.ts", '!./mods/skip.ts'], { eager: true, import: "default", }`)).toEqual([
      ["./mods/*.ts", "!./mods/skip.ts"],
      { eager: true, import: "default" },
    ]);
    expect(literalArguments("`./a/*.json`, { query: { raw: true, n: -1 }, 'as': \"raw\" } as const /* why */")).toEqual([
      "./a/*.json",
      { query: { raw: true, n: -1 }, as: "raw" },
    ]);
    expect(literalArguments(`"./x.ts", { eager: undefined, n: null }`)).toEqual(["./x.ts", { eager: undefined, n: null }]);
  });

  test("anything that is not a literal is not read (and never run)", () => {
    for (const args of [
      "patterns",
      `["./a.ts"].concat(more)`,
      "`./${dir}/*.ts`",
      `"./a.ts", { [key]: true }`,
      `"./a.ts", { eager }`,
      `"./a.ts", { ...options }`,
      `"./a.ts", { get eager() { return true } }`,
      `(() => { while (true); })()`,
      `/a/`,
      `"./a.ts", { __proto__: { eager: true } }`,
    ])
      expect(literalArguments(args)).toBeUndefined();
  });

  test("a literal that takes long to read is still read: nothing about it depends on the clock", () => {
    // Run as code with a 50 ms bound (as it was), an object this size ran out of time; a busy machine did the same to small ones.
    const query = Object.fromEntries(Array.from({ length: 300_000 }, (_, index) => [`k${index}`, index]));
    const text = `"./mods/*.ts", { query: { ${Object.keys(query)
      .map((key) => `${key}: ${query[key]}`)
      .join(", ")} } }`;
    expect(literalArguments(text)).toEqual(["./mods/*.ts", { query }]);
  });
});
