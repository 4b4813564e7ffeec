// What "Update Snapshots" tells the user once the server answered: how many snapshots were
// rewritten or written, that the test still fails when it does, and why nothing ran.
import { describe, expect, test } from "bun:test";
import { updateSnapshotWords } from "../../extension/vscodeFree/snapshotWords.ts";

const PATH = ["greeting", "says hello"];

describe("Update Snapshots' notification", () => {
  test("says how many snapshots were rewritten and written", () => {
    expect(updateSnapshotWords(PATH, { ok: true, status: "passed", updated: 2, added: 1 })).toBe('snapshots of "greeting › says hello" updated: 2 rewritten, 1 written.');
  });

  test("says none needed rewriting when the test's snapshots matched, and that the test still fails when it does", () => {
    expect(updateSnapshotWords(PATH, { ok: true, status: "failed", updated: 0, added: 0 })).toBe(
      'snapshots of "greeting › says hello" updated: none needed rewriting; the test still fails.',
    );
  });

  test("says why nothing ran", () => {
    expect(updateSnapshotWords(PATH, { ok: false, refused: "the file has unsaved changes: save it, then update the snapshot" })).toBe(
      'the snapshots of "greeting › says hello" were not updated: the file has unsaved changes: save it, then update the snapshot.',
    );
  });
});
