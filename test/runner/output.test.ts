// All of a test's output reaches the report, flushed before its worker exits, up to a documented
// cap per test past which the report says how much was cut; timeouts no timer can hold are clamped.
import { describe, expect, test } from "bun:test";
import { MAX_TIMER_MS, OUTPUT_CAP_BYTES } from "../../core/execution/limits.ts";
import type { RunSummary } from "../../core/execution/report.ts";
import { fixture, SLOW, turnlens } from "./harness.ts";

describe("no output lost", () => {
  test(
    "20,000 log lines all arrive, the last one included",
    async () => {
      const result = await turnlens([fixture("output/manyLines.test.ts")]);
      expect(result.code).toBe(0);
      const lines = result.stdout.split("\n").filter((line) => line.startsWith("line "));
      expect(lines).toHaveLength(20_000);
      expect(lines[0]).toBe("line 1 of 20000");
      expect(lines.at(-1)).toBe("line 20000 of 20000");
      expect(new Set(lines).size).toBe(20_000);
    },
    SLOW,
  );

  test(
    "the lines a test printed before it blocked its worker arrive, though the watchdog killed it",
    async () => {
      const result = await turnlens([fixture("output/printsThenSpins.test.ts"), "--timeout", "300ms"]);
      expect(result.code).toBe(1);
      expect(result.stdout.split("\n").filter((line) => line.startsWith("before the loop"))).toEqual(["before the loop 1", "before the loop 2", "before the loop 3"]);
      expect(result.stdout).toContain("did not finish within its 300ms timeout");
    },
    SLOW,
  );

  test(
    "a 100 MiB flood keeps the cap's worth and says how much was cut, and the next test's output still arrives",
    async () => {
      const result = await turnlens([fixture("output/flood.test.ts"), "--reporter", "json"]);
      expect(result.code).toBe(0);
      // The json reporter sends the tests' output to stderr, in order.
      const kept =
        result.stderr
          .split("\n")
          .filter((line) => line.startsWith("x"))
          .join("\n").length + 1;
      expect(kept).toBe(OUTPUT_CAP_BYTES);
      const cut = 100 * 1024 * 1024 - OUTPUT_CAP_BYTES;
      expect(cut).toBe(96 * 1024 * 1024);
      expect(result.stderr).toContain(`\n… 96 MB of this test's output cut (showing its first 4 MB)\nthe next test's line\n`);
      expect((JSON.parse(result.stdout) as RunSummary).passed).toBe(2);
    },
    SLOW,
  );
});

describe("a flood above the cap", () => {
  test(
    "a cut output says on the stream it cut, on a line of its own, how much was cut and how much is shown",
    async () => {
      const result = await turnlens([fixture("output/tenMegabytes.test.ts")]);
      expect(result.code).toBe(0);
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
      expect(result.stderr).toBe("");
      expect(result.lastLine).toBe("2 passed, 0 failed");
    },
    SLOW,
  );
});

describe("timeouts a timer cannot hold", () => {
  test(
    "per-test and default timeouts of 2^31 ms and more do not fire at once",
    async () => {
      const result = await turnlens([fixture("limits/hugeTimeout.test.ts"), "--reporter", "json"]);
      const report = JSON.parse(result.stdout) as RunSummary;
      expect(report.files[0]!.tests.map((t) => [t.name, t.status, t.error?.message])).toEqual([
        ["has a per-test timeout of 2^31 ms", "passed", undefined],
        ["has an infinite per-test timeout", "passed", undefined],
        ["runs under a default timeout of 2^40 ms", "passed", undefined],
      ]);
      expect(result.code).toBe(0);
    },
    SLOW,
  );

  test(
    "--timeout past what a timer holds is a usage error",
    async () => {
      const result = await turnlens([fixture("limits"), "--timeout", "40000m"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`--timeout takes at most ${MAX_TIMER_MS}ms (about 24 days), what a timer can hold\n`);
    },
    SLOW,
  );
});
