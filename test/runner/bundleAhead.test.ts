// Which run takes a bundle made ahead: the pool sends a worker a file's run, then the list of the
// files it promises next; the worker claims a run's bundle as the run arrives (transform.ts).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { bundleAhead, claimBundledAhead, takeBundledAhead } from "../../core/execution/transform.ts";
import { FIXTURES } from "./harness.ts";

const fixture = (name: string) => join(FIXTURES, name);
const first = fixture("graph/importsWorkflow.test.ts");
const second = fixture("graph/other.test.ts");

describe("a worker's files bundled ahead", () => {
  test("a run that arrived just before the list of the files after it is bundled alone, and each file of the list then takes its bundle made ahead", async () => {
    claimBundledAhead(first);
    bundleAhead([second]);
    expect(await takeBundledAhead(first)).toBeUndefined();
    claimBundledAhead(second);
    expect((await takeBundledAhead(second))?.inputs).toEqual([second, fixture("graph/other.ts")]);
  });

  test("a run of a file that is not the next one promised drops the list: a later run of a file in it is bundled alone", async () => {
    bundleAhead([first, second]);
    claimBundledAhead(second);
    expect(await takeBundledAhead(second)).toBeUndefined();
    claimBundledAhead(first);
    expect(await takeBundledAhead(first)).toBeUndefined();
  });
});
