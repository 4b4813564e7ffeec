// The snapshot matchers as Vitest's chai plugin (core/testApi/snapshotMatchers.ts), on chai itself:
// inline snapshots that match pass, one that differs throws Vitest's error with the snapshots as
// expected and actual, and `not` is refused, as Vitest refuses it.
import { expect, test } from "bun:test";
import * as chai from "chai";
import { setRunning } from "../../core/testApi/collector.ts";
import { SnapshotPlugin } from "../../core/testApi/snapshotMatchers.ts";
import { beginSnapshots, finishSnapshots } from "../../core/testApi/snapshots.ts";

chai.use(SnapshotPlugin as unknown as Parameters<typeof chai.use>[0]);
type Snapshots = { toMatchInlineSnapshot(inline?: string): void; toThrowErrorMatchingInlineSnapshot(inline?: string): void; not: Snapshots };
const snap = (value: unknown) => chai.expect(value) as unknown as Snapshots;

/**
 * Runs `body` as the test `name` of a file whose snapshots nothing may write (`none`): this bundle's
 * own copy of the snapshot state, which the runner's copy does not see.
 */
async function asTest(name: string, body: () => void): Promise<void> {
  const file = `${import.meta.dirname}/no-such-dir/inline.test.ts`;
  let line = 0;
  // Each call a line of its own: two snapshots at one place must be the same snapshot.
  await beginSnapshots(file, "none", () => ({ file, line: ++line, column: 1 }));
  setRunning({ name, finishers: [], path: [name], id: name });
  try {
    body();
  } finally {
    setRunning(null);
    await finishSnapshots();
  }
}

test("an inline snapshot that matches passes, a value and a thrown error alike", async () => {
  await asTest("matches", () => {
    snap({ turns: 2 }).toMatchInlineSnapshot(`
    {
      "turns": 2,
    }
  `);
    snap(() => {
      throw new Error("no turn");
    }).toThrowErrorMatchingInlineSnapshot(`[Error: no turn]`);
  });
});

test("an inline snapshot that differs throws Vitest's message with the snapshots as expected and actual", async () => {
  let thrown: unknown;
  await asTest("differs", () => {
    try {
      snap("now").toMatchInlineSnapshot(`"then"`);
    } catch (error) {
      thrown = error;
    }
  });
  expect(thrown).toMatchObject({
    message: "Snapshot `differs 1` mismatched",
    expected: '"then"',
    actual: '"now"',
  });
});

test("not is refused", async () => {
  await asTest("not", () => {
    expect(() => snap(1).not.toMatchInlineSnapshot(`1`)).toThrow('toMatchInlineSnapshot cannot be used with "not"');
  });
});
