// All of a test's output reaches the report, flushed before its worker exits, up to a documented
// cap per test past which the report says how much was cut; timeouts no timer can hold are clamped.
import { describe, expect } from "bun:test";
import { MAX_TIMER_MS, OUTPUT_CAP_BYTES } from "../../core/execution/limits.ts";
import { cliTests, reportOf } from "./cliTable.ts";
import { fixture } from "./harness.ts";

describe("no output lost", () => {
  cliTests([
    {
      name: "20,000 log lines all arrive, the last one included",
      args: [fixture("output/manyLines.test.ts")],
      code: 0,
      check: (result) => {
        const lines = result.stdout.split("\n").filter((line) => line.startsWith("line "));
        expect(lines).toHaveLength(20_000);
        expect(lines[0]).toBe("line 1 of 20000");
        expect(lines.at(-1)).toBe("line 20000 of 20000");
        expect(new Set(lines).size).toBe(20_000);
      },
    },
    {
      name: "the lines a test printed before it blocked its worker arrive, though the watchdog killed it",
      args: [fixture("output/printsThenSpins.test.ts"), "--timeout", "300ms"],
      code: 1,
      stdout: { has: ["did not finish within its 300ms timeout"] },
      check: (result) =>
        expect(result.stdout.split("\n").filter((line) => line.startsWith("before the loop"))).toEqual(["before the loop 1", "before the loop 2", "before the loop 3"]),
    },
    {
      name: "a 100 MiB flood keeps the cap's worth and says how much was cut, and the next test's output still arrives",
      args: [fixture("output/flood.test.ts"), "--reporter", "json"],
      code: 0,
      // The json reporter sends the tests' output to stderr, in order.
      stderr: { has: [`\n… 96 MB of this test's output cut (showing its first 4 MB)\nthe next test's line\n`] },
      check: (result) => {
        const kept =
          result.stderr
            .split("\n")
            .filter((line) => line.startsWith("x"))
            .join("\n").length + 1;
        expect(kept).toBe(OUTPUT_CAP_BYTES);
        const cut = 100 * 1024 * 1024 - OUTPUT_CAP_BYTES;
        expect(cut).toBe(96 * 1024 * 1024);
        expect(reportOf(result).passed).toBe(2);
      },
    },
  ]);
});

describe("a flood above the cap", () => {
  cliTests([
    {
      name: "a cut output says on the stream it cut, on a line of its own, how much was cut and how much is shown",
      args: [fixture("output/tenMegabytes.test.ts")],
      code: 0,
      stderr: "",
      lastLine: "2 passed, 0 failed",
      check: (result) => {
        const flooded = 10_485 * 1000;
        const note = "… 6 MB of this test's output cut (showing its first 4 MB)\n";
        expect(Math.round((flooded - OUTPUT_CAP_BYTES) / (1024 * 1024))).toBe(6);
        const at = result.stdout.indexOf(note);
        expect(at).toBeGreaterThan(0);
        // What comes before the note: the first 4 MB as written (the cap falls inside a line), then the line break the note adds.
        const kept = result.stdout.slice(0, at);
        expect(kept.length).toBe(OUTPUT_CAP_BYTES + 1);
        expect(kept).toBe(`${`${"x".repeat(999)}\n`.repeat(4194)}${"x".repeat(OUTPUT_CAP_BYTES - 4194 * 1000)}\n`);
        expect(result.stdout.slice(at + note.length)).toStartWith("the next test's line\n✓ test/runner/fixtures/output/tenMegabytes.test.ts (2 tests)\n");
      },
    },
  ]);
});

describe("timeouts a timer cannot hold", () => {
  cliTests([
    {
      name: "per-test and default timeouts of 2^31 ms and more do not fire at once",
      args: [fixture("limits/hugeTimeout.test.ts"), "--reporter", "json"],
      code: 0,
      check: (result) =>
        expect(reportOf(result).files[0]!.tests.map((t) => [t.name, t.status, t.error?.message])).toEqual([
          ["has a per-test timeout of 2^31 ms", "passed", undefined],
          ["has an infinite per-test timeout", "passed", undefined],
          ["runs under a default timeout of 2^40 ms", "passed", undefined],
        ]),
    },
    {
      name: "on Vitest's runner too, hook, per-test and default timeouts of 2^31 ms and more do not fire at once",
      args: [fixture("limits/hugeTimeoutVitest.test.ts"), "--reporter", "json"],
      code: 0,
      check: (result) =>
        expect(reportOf(result).files[0]!.tests.map((t) => [t.name, t.status, t.error?.message])).toEqual([
          ["has a per-test timeout of 2^31 ms", "passed", undefined],
          ["has an infinite per-test timeout", "passed", undefined],
          ["runs under a default timeout of 2^40 ms", "passed", undefined],
        ]),
    },
    {
      name: "--timeout past what a timer holds is a usage error",
      args: [fixture("limits"), "--timeout", "40000m"],
      code: 2,
      stderr: `--timeout takes at most ${MAX_TIMER_MS}ms (about 24 days), what a timer can hold: "40000m" is 2400000000ms\n`,
    },
  ]);
});
