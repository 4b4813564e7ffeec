// When a background run's results get their entry in Test Results (extension/vscodeFree/backgroundPublication.ts):
// VS Code's summary counts the newest entry alone, so none made while a run the user asked for is
// under way may stay the newest. The e2e screenshots step met both ways in CI and after the e2e
// suite: a file opened just before Run All left the summary at "2/2" after a Run All of 51 tests.
import { describe, expect, test } from "bun:test";
import { BackgroundPublication } from "../../extension/vscodeFree/backgroundPublication.ts";

describe("a background run's entry in Test Results", () => {
  test("is made at its end when no run the user asked for is going", () => {
    const publication = new BackgroundPublication<string>();
    publication.requestedStarted("Run All");
    expect(publication.requestedEnded("Run All")).toEqual({ publish: false });
    expect(publication.backgroundEnded("open summarize.test.ts")).toEqual(["open summarize.test.ts"]);
  });

  test("waits for the end of a Run All that started before it ended, and comes after Run All's own entry", () => {
    const publication = new BackgroundPublication<string>();
    publication.requestedStarted("Run All");
    expect(publication.backgroundEnded("open summarize.test.ts")).toEqual([]);
    expect(publication.requestedEnded("Run All")).toEqual({ publish: true, sources: ["open summarize.test.ts"] });
    // published once: the next requested run has nothing waiting
    publication.requestedStarted("Run file");
    expect(publication.requestedEnded("Run file")).toEqual({ publish: false });
  });

  test("made between a click on Run All and the extension hearing of it (so newer than Run All's entry), it is made again after Run All ends, once", () => {
    const publication = new BackgroundPublication<string>();
    // VS Code made Run All's entry at the click; the handler is not called yet.
    expect(publication.backgroundEnded("open summarize.test.ts")).toEqual(["open summarize.test.ts"]);
    publication.requestedStarted("Run All");
    expect(publication.requestedEnded("Run All")).toEqual({ publish: true, sources: [] });
    publication.requestedStarted("Run All again");
    expect(publication.requestedEnded("Run All again")).toEqual({ publish: false });
  });

  test("waits for the last of the requested runs going, and gathers every background run that ended meanwhile in one entry, oldest first", () => {
    const publication = new BackgroundPublication<string>();
    publication.requestedStarted("Run All");
    publication.requestedStarted("Debug a.test.ts");
    expect(publication.backgroundEnded("edit a.test.ts")).toEqual([]);
    expect(publication.requestedEnded("Run All")).toEqual({ publish: false });
    expect(publication.backgroundEnded("edit b.test.ts")).toEqual([]);
    expect(publication.requestedEnded("Debug a.test.ts")).toEqual({ publish: true, sources: ["edit a.test.ts", "edit b.test.ts"] });
    expect(publication.backgroundEnded("edit c.test.ts")).toEqual(["edit c.test.ts"]);
  });
});
