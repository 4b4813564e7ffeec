// When a background run's results get their entry in Test Results (extension/vscodeFree/backgroundPublication.ts):
// VS Code's summary counts the newest entry alone, so none is made while a run the user asked for goes.
// The e2e screenshots step met this in CI: a file opened just before Run All counted "2/2" after it.
import { describe, expect, test } from "bun:test";
import { BackgroundPublication } from "../../extension/vscodeFree/backgroundPublication.ts";

describe("a background run's entry in Test Results", () => {
  test("is made at its end when no run the user asked for is going", () => {
    const publication = new BackgroundPublication<string>();
    expect(publication.backgroundEnded("open summarize.test.ts")).toEqual(["open summarize.test.ts"]);
  });

  test("waits for the end of a Run All that started before it ended, and comes after Run All's own entry", () => {
    const publication = new BackgroundPublication<string>();
    publication.requestedStarted("Run All");
    expect(publication.backgroundEnded("open summarize.test.ts")).toEqual([]);
    expect(publication.requestedEnded("Run All")).toEqual(["open summarize.test.ts"]);
    // published once: the next requested run has nothing waiting
    publication.requestedStarted("Run file");
    expect(publication.requestedEnded("Run file")).toEqual([]);
  });

  test("waits for the last of the requested runs going, and gathers every background run that ended meanwhile in one entry, oldest first", () => {
    const publication = new BackgroundPublication<string>();
    publication.requestedStarted("Run All");
    publication.requestedStarted("Debug a.test.ts");
    expect(publication.backgroundEnded("edit a.test.ts")).toEqual([]);
    expect(publication.requestedEnded("Run All")).toEqual([]);
    expect(publication.backgroundEnded("edit b.test.ts")).toEqual([]);
    expect(publication.requestedEnded("Debug a.test.ts")).toEqual(["edit a.test.ts", "edit b.test.ts"]);
    expect(publication.backgroundEnded("edit c.test.ts")).toEqual(["edit c.test.ts"]);
  });

  test("a requested run that ended before the background run did leaves it published at once", () => {
    const publication = new BackgroundPublication<string>();
    publication.requestedStarted("Run All");
    expect(publication.requestedEnded("Run All")).toEqual([]);
    expect(publication.backgroundEnded("edit a.test.ts")).toEqual(["edit a.test.ts"]);
  });
});
