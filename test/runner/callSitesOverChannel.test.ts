// A turn's workflow call sites (askedAt, openedAt) cross the worker's channel with the run's trace:
// the pool's message check keeps them, and they still point at the workflow's .ts source.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT as root, SLOW, withOnePool } from "./harness.ts";

describe("a run's trace from a worker", () => {
  test(
    "carries each turn's askedAt and openedAt, mapped to the workflow's source (examples/review)",
    () =>
      withOnePool(async (pool) => {
        const done = await pool.run({ file: join(root, "examples", "review", "workflow.test.ts"), timeoutMs: 10_000 });
        const first = done?.report.tests.find((test) => test.name === "every verifier passes, so the lead approves");
        const workflow = join(root, "examples", "review", "workflow.ts");
        const sites = (first?.runs[0]?.turns ?? [])
          .map(({ agent, n, askedAt, openedAt }) => ({ agent, n, askedAt, openedAt }))
          .sort((a, b) => a.agent.localeCompare(b.agent) || a.n - b.n);
        expect(sites).toEqual([
          { agent: "lead", n: 1, askedAt: { file: workflow, line: 45, column: 32 }, openedAt: { file: workflow, line: 43, column: 34 } },
          { agent: "lead", n: 2, askedAt: { file: workflow, line: 53, column: 32 }, openedAt: { file: workflow, line: 43, column: 34 } },
          ...["verifier-1", "verifier-2", "verifier-3"].map((agent) => ({
            agent,
            n: 1,
            askedAt: { file: workflow, line: 28, column: 44 },
            openedAt: { file: workflow, line: 27, column: 42 },
          })),
        ]);
      }),
    SLOW,
  );
});
