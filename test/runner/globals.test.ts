// The runner serves test files the standard globals a Bun test may use (core/testApi/testGlobals.ts),
// on every supported Node: the fixture uses each of them, and passes on Node 20 as on Node 24.
import { expect, test } from "bun:test";
import { fixture, SLOW, turnlens } from "./harness.ts";

test(
  "a test file may use Promise.withResolvers, Array.fromAsync, the Set methods, groupBy, iterator helpers, RegExp.escape and Error.isError",
  async () => {
    const result = await turnlens([fixture("globals")]);
    expect(result.stdout).toContain(`✓ ${fixture("globals/newer-globals.test.js")} (8 tests)`);
    expect(result.lastLine).toBe("8 passed, 0 failed");
    expect(result.code).toBe(0);
  },
  SLOW,
);
