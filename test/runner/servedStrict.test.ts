// The code the worker serves to test files (Vitest's packages bundled into it) runs in strict mode,
// as it does under Vitest: a sloppy bundle would show a mock's callers globalThis as `this`.
import { expect, test } from "bun:test";
import { runRow } from "./cliTable.ts";

test("this in a plain call of a vi.fn() is undefined, as under Vitest, and the receiver in a method call", async () => {
  const [result] = await runRow({
    files: {
      "thisArg.test.ts": `import { expect, test, vi } from "vitest";
test("receivers", () => {
  const fn = vi.fn(function (this: unknown) { return this; });
  const holder = { fn };
  expect([fn(), holder.fn() === holder]).toEqual([undefined, true]);
  expect(fn.mock.contexts).toEqual([undefined, holder]);
});
`,
    },
    args: [".", "--reporter", "json"],
    code: 0,
  });
  expect(result?.code).toBe(0);
});
