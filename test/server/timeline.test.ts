// `turnlens/timeline` and the "Timeline" lens: a test's last run as the timeline's model and its
// diagram (SVG and Mermaid text), over the real protocol, for a client that can show one; the transcript is text only.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TimelineResult, TranscriptResult } from "../../server/protocol.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
afterEach(() => server.dispose());

const PATH = join(ROOT, "examples", "feature-delivery", "workflow.test.ts");
const LINES = readFileSync(PATH, "utf8").split("\n");
const ASKING = "a reviewer asks the planner to change the doc, and reviews once it replied";

/** The id the server gives the test named ASKING in the document `uri`. */
function askingTestId(uri: string): string {
  return `${uri}#${encodeURIComponent(ASKING)}`;
}

/** 1-based line and column of `call` on the first line of the example's test file that holds `text`. */
function siteOf(text: string, call: string) {
  const index = LINES.findIndex((line) => line.includes(text));
  return { file: PATH, line: index + 1, column: LINES[index]!.indexOf(call) + 1 };
}

async function started(showsTimelines: boolean): Promise<string> {
  server = new TestServer({ initializationOptions: { showsTimelines } });
  await server.initialize();
  return (await server.openAndRun(PATH)).uri;
}

/** Starts the server (showing timelines or not), runs the example, and sends `method` for the test named ASKING. */
async function askedAboutAsking<Result>(showsTimelines: boolean, method: string): Promise<{ uri: string; result: Result }> {
  const uri = await started(showsTimelines);
  return { uri, result: await server.request<Result>(method, { test: askingTestId(uri) }) };
}

describe("the run timeline over the protocol", () => {
  test(
    "a client that shows timelines gets a Timeline lens on each test that ran, naming the test",
    async () => {
      const uri = await started(true);
      const lenses = await server.request<Array<{ range: { start: { line: number } }; command: { title: string; command: string; arguments?: unknown[] } }>>(
        "textDocument/codeLens",
        { textDocument: { uri } },
      );
      const timelines = lenses.filter((lens) => lens.command.title === "Timeline");
      expect(timelines.map((lens) => ({ line: lens.range.start.line + 1, command: lens.command.command, arguments: lens.command.arguments }))).toEqual([
        {
          line: siteOf('test("the happy path', "test(").line,
          command: "turnlens.showTimeline",
          arguments: [`${uri}#the%20happy%20path%20delivers%20with%20no%20messages`],
        },
        { line: siteOf(`test("${ASKING}`, "test(").line, command: "turnlens.showTimeline", arguments: [askingTestId(uri)] },
        {
          line: siteOf('test("an author that never replies', "test(").line,
          command: "turnlens.showTimeline",
          arguments: [`${uri}#${encodeURIComponent("an author that never replies leaves the review inconclusive")}`],
        },
      ]);
    },
    SLOW,
  );

  test(
    "a client that does not gets no Timeline lens",
    async () => {
      const uri = await started(false);
      const lenses = await server.request<Array<{ command: { title: string } }>>("textDocument/codeLens", { textDocument: { uri } });
      expect(lenses.filter((lens) => lens.command.title === "Timeline")).toEqual([]);
    },
    SLOW,
  );

  test(
    "the timeline request answers the test's runs: the question and reply as arrows, each box at the answer( that met it, and the diagram",
    async () => {
      const { uri, result } = await askedAboutAsking<TimelineResult>(true, "turnlens/timeline");
      expect({ ...result, runs: result.runs.length, style: result.style.includes("svg.timeline .box rect { fill: var(--tl-box);") }).toEqual({
        test: askingTestId(uri),
        name: ASKING,
        status: "passed",
        runs: 1,
        style: true,
      });
      const { timeline, svg } = result.runs[0]!;
      expect(timeline.lanes.map((lane) => lane.id)).toEqual(["workflow", "planner", "reviewer", "implementer"]);
      expect(timeline.arrows.map(({ kind, message, from, to, text, end }) => ({ kind, message, from, to, text, end }))).toEqual([
        { kind: "question", message: "m1", from: "reviewer", to: "planner", text: "name the cache", end: "replied" },
        { kind: "reply", message: "m2", from: "planner", to: "reviewer", text: "Named it in the doc.", end: "delivered" },
      ]);
      const planner = siteOf("planner: [answer(WORK, planned)", "answer(");
      expect(timeline.boxes.map(({ lane, kind, n, entry }) => ({ lane, kind, n, line: entry?.site?.line, column: entry?.site?.column }))).toEqual([
        { lane: "planner", kind: "turn", n: 1, line: planner.line, column: planner.column },
        { lane: "reviewer", kind: "turn", n: 1, ...lineAndColumn(siteOf("answer(VERDICT, async (turn) => {", "answer(")) },
        { lane: "planner", kind: "wake", n: 1, line: undefined, column: undefined },
        { lane: "planner", kind: "turn", n: 2, ...lineAndColumn(siteOf("planner: [answer(WORK, planned), answer(WORK, {", "answer(WORK, {")) },
        { lane: "implementer", kind: "turn", n: 1, ...lineAndColumn(siteOf('implementer: answer(CHANGE, { branch: "feat/cache" })', "answer(")) },
        // `ready(...)` is a helper of the test's: the entry is the `answer(` it calls.
        { lane: "reviewer", kind: "turn", n: 2, ...lineAndColumn(siteOf("const ready = ", "answer(")) },
      ]);
      const workflowFile = join(ROOT, "examples", "feature-delivery", "workflow.ts");
      const workflowLines = readFileSync(workflowFile, "utf8").split("\n");
      const askedLine = workflowLines.findIndex((line) => line.includes("const planned = await planner.run("));
      expect(timeline.boxes[0]!.askedAt).toEqual({ file: workflowFile, line: askedLine + 1, column: workflowLines[askedLine]!.indexOf("run(") + 1 });
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" class="timeline"')).toBe(true);
      expect(svg.match(/<g class="box [^"]*" data-box="\d+"/g)?.length).toBe(6);
      expect(await server.request("turnlens/timeline", { test: `${uri}#no%20such%20test` })).toBeNull();
    },
    SLOW,
  );

  test(
    "the transcript document (and so Test Results' output) is text: no Mermaid source, each run's transcript only",
    async () => {
      const { result } = await askedAboutAsking<TranscriptResult>(false, "turnlens/transcript");
      expect(result.text).not.toContain("```");
      expect(result.text).not.toContain("sequenceDiagram");
      const [test] = result.tests;
      expect(result.text).toBe(`test ${ASKING} · passed · ${Math.round(test!.durationMs)} ms\n${test!.runs.map((run) => run.transcript).join("\n")}`);
    },
    SLOW,
  );

  test(
    "the timeline request answers each run's diagram as Mermaid text too, for a client that cannot draw the SVG",
    async () => {
      const { result } = await askedAboutAsking<TimelineResult>(true, "turnlens/timeline");
      const block = result.runs[0]!.mermaid;
      expect(block.split("\n").slice(0, 5)).toEqual([
        "sequenceDiagram",
        "  participant workflow as feature-delivery (workflow)",
        "  participant L1 as planner",
        "  participant L2 as reviewer",
        "  participant L3 as implementer",
      ]);
      expect(block).toContain("  L2->>L1: m1 asks: name the cache\n");
      expect(block).toContain("  L1-->>L2: m2 replies to m1: Named it in the doc.\n");
    },
    SLOW,
  );
});

function lineAndColumn(site: { line: number; column: number }) {
  return { line: site.line, column: site.column };
}
