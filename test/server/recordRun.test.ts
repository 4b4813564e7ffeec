// The turnlens.recordRun command over the protocol: `turnlens record` on a run folder, answered
// with the test written or where the run parts from the workflow; bad arguments are refused by name,
// and so is every command that runs the workspace's code in an untrusted workspace.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { answer, testWorkflow } from "agentswf/testing";
import summarize, { SUMMARY } from "../../examples/summarize/summarize";
import { Commands } from "../../server/protocol.ts";
import { ROOT, SLOW, TestServer, type StartOptions } from "./harness.ts";

let server: TestServer;
afterEach(() => server.dispose());
const dir = mkdtempSync(join(tmpdir(), "turnlens-record-command-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const WORKFLOW = join(ROOT, "examples/summarize/summarize.ts");

async function runFolder(name: string): Promise<string> {
  const run = await testWorkflow(summarize, { args: { file: "README.md" }, id: name, agents: { reader: answer(SUMMARY, { summary: "Two." }) } });
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "run.jsonl"), run.run.map((line) => `${JSON.stringify(line)}\n`).join(""));
  return folder;
}

/** Starts the server (with `options`) and writes the run folder `name`; returns the folder. */
async function startWithRun(name: string, options: StartOptions = {}): Promise<string> {
  server = await TestServer.started(options);
  return runFolder(name);
}

/** Writes `text` to the file `name` of the test's folder; its path. */
function writtenInDir(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
}

/** Asks the server for turnlens.recordRun with `argument`. */
function recordRun(argument: Record<string, unknown>): Promise<unknown> {
  return server.request("workspace/executeCommand", { command: Commands.recordRun, arguments: [argument] });
}

describe("the turnlens.recordRun command", () => {
  test(
    "writes the test of a run folder (given as file URIs) and answers with the file and the counts",
    async () => {
      const folder = await startWithRun("run-1");
      const out = join(dir, "run-1.test.ts");
      const result = await recordRun({ folder: pathToFileURL(folder).href, workflow: pathToFileURL(WORKFLOW).href, out });
      expect(result).toEqual({ ok: true, written: out, turns: 1, events: 0, decisions: 0, partings: [] });
      expect(readFileSync(out, "utf8")).toContain(`agents: { reader: answer(SUMMARY, { summary: "Two." }) },`);
    },
    SLOW,
  );

  test(
    "with check on an edited workflow, answers where the run parts and writes nothing",
    async () => {
      const folder = await startWithRun("run-2");
      const edited = writtenInDir("edited.ts", readFileSync(WORKFLOW, "utf8").replace("summarise it in two sentences", "summarise it in three sentences"));
      const result = await recordRun({ folder, workflow: edited, check: true });
      expect(result).toEqual({
        ok: false,
        turns: 1,
        events: 0,
        decisions: 0,
        partings: [
          'agent "reader" turn 1: the prompt changed: was "Read README.md and summarise it in two sentences.", now "Read README.md and summarise it in three sentences."',
        ],
      });
      expect(existsSync(join(dir, "run-2.test.ts"))).toBe(false);
    },
    SLOW,
  );

  test(
    "refuses an argument without a workflow by name, and the server keeps answering",
    async () => {
      server = await TestServer.started();
      await expect(recordRun({ folder: dir })).rejects.toThrow("turnlens.recordRun needs workflow: the workflow file the run ran");
      const result = await recordRun({ folder: join(dir, "none"), workflow: WORKFLOW });
      expect(result).toEqual({ ok: false, turns: 0, events: 0, decisions: 0, partings: [], error: `no such run folder: ${join(dir, "none")}` });
    },
    SLOW,
  );

  test(
    "a workflow that never stops loading is stopped at the time limit, and the server keeps answering",
    async () => {
      const folder = await startWithRun("run-3");
      const looping = writtenInDir("looping.ts", "while (true) {}\nexport default {};\n");
      const answered = recordRun({ folder, workflow: looping, check: true });
      // The child is started as the request is handled (flushed by advance); the limit is the server's timer, manual here.
      await server.advance(119_999);
      await server.advance(1);
      expect(await answered).toEqual({ ok: false, turns: 0, events: 0, decisions: 0, partings: [], error: "turnlens record took more than 120 s and was stopped" });
      expect(await server.request("workspace/executeCommand", { command: Commands.cancelRuns, arguments: [] })).toEqual({ cancelled: true });
    },
    SLOW,
  );

  test(
    "in an untrusted workspace is refused without loading the workflow, as is every command that runs the workspace's code",
    async () => {
      const folder = await startWithRun("run-untrusted", { initializationOptions: { workspaceTrusted: false } });
      const marker = join(dir, "workflow-ran");
      const workflow = writtenInDir("marking.ts", `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default {};\n`);
      const refusal = "the workspace is not trusted, so Turnlens runs none of its code";
      expect(await recordRun({ folder, workflow, check: true })).toEqual({
        ok: false,
        turns: 0,
        events: 0,
        decisions: 0,
        partings: [],
        error: `${refusal} (turnlens.recordRun replays the workflow)`,
      });
      expect(existsSync(marker)).toBe(false);
      const uri = pathToFileURL(WORKFLOW).href;
      for (const command of [Commands.runFile, Commands.runTest, Commands.checkAssertions]) {
        expect(await server.request("workspace/executeCommand", { command, arguments: [uri, ["a test"]] })).toEqual({ started: false, refused: refusal });
      }
      expect(await server.request("workspace/executeCommand", { command: Commands.cancelRuns, arguments: [] })).toEqual({ cancelled: true });
      expect(server.workers).toHaveLength(0);
    },
    SLOW,
  );
});
