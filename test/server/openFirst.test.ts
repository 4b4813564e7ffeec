// The document in front of the user comes first (issue 27, the cold window): a test file opened while
// a Run All of the workspace's files from disk is queued gets its results before the files still
// waiting, whether or not the Run All holds a run of that same file.
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TestId, type TestRunProgressParams } from "../../server/protocol.ts";
import { MISTAKES, ROOT, SLOW, TestServer } from "./harness.ts";

const PROGRESS = "turnlens/testRunProgress";
/** Files of examples/mistakes that end quickly (no stall, no timeout), run from disk by the Run All. */
const QUEUED = [
  "entry-never-reached",
  "event-never-sent",
  "misspelled-option",
  "refused-answer",
  "schema-mismatch",
  "too-many-turns",
  "turn-past-list",
  "two-globs",
  "unscripted-agent",
].map((name) => pathToFileURL(join(MISTAKES, `${name}.test.ts`)).href);
const OPENED = join(ROOT, "examples", "summarize", "summarize.test.ts");

let server: TestServer;
afterEach(() => server.dispose());

/** The files the Run All `runId` reported a test of, in the order their first result came, up to `until` (an index into what the client received). */
function reportedFiles(runId: string, until: number): string[] {
  const files: string[] = [];
  for (const params of server.all<TestRunProgressParams>(PROGRESS).slice(0, until)) {
    if (params.runId !== runId || (params.message.type !== "passed" && params.message.type !== "failed")) continue;
    const { uri } = TestId.parse(params.message.test);
    if (!files.includes(uri)) files.push(uri);
  }
  return files;
}

/** Opens the summarize test file during a Run All of `include` (one worker), and waits for its own run's end: the files reported before it. */
async function openDuringRunAll(include: string[]): Promise<string[]> {
  server = await TestServer.started({ initializationOptions: { settings: { workers: 1 } } });
  await server.request("turnlens/runTests", { runId: "all", include });
  const from = server.received.length;
  const uri = await server.open(OPENED);
  await server.advance(300);
  await server.waitFor<TestRunProgressParams>(PROGRESS, (params) => params.uri === uri && params.background === true && params.message.type === "end", from);
  return reportedFiles("all", server.all<TestRunProgressParams>(PROGRESS).length).filter((file) => file !== uri);
}

test(
  "a test file opened during a Run All gets its results before the files still queued from disk",
  async () => {
    const before = await openDuringRunAll(QUEUED);
    // At most the file the worker had already taken (and one it took as the document was read).
    expect(before.length).toBeLessThanOrEqual(2);
  },
  SLOW,
);

test(
  "a test file opened while the Run All's own run of it is queued has that run moved ahead, then its own",
  async () => {
    const opened = pathToFileURL(OPENED).href;
    const before = await openDuringRunAll([...QUEUED, opened]);
    expect(before.length).toBeLessThanOrEqual(2);
  },
  SLOW,
);
