// The wire-to-tree mapping (extension/vscodeFree/testTree.ts) without VS Code: discovered trees, tests only a
// run named, `testWorkflow` runs as children, progress sequences as states, failure messages, and
// debug runs' CLI reports.
import { describe, expect, test } from "bun:test";
import { TestId, type TestItem, type TestRunProgressMessage, type TestTranscript, type WorkflowRun } from "../../server/protocol.ts";
import {
  affectedInScope,
  progressOfCliReport,
  RunStates,
  runNodeId,
  terminalText,
  testIdOf,
  testNamePattern,
  TestTree,
  withDiffs,
  messageLocation,
  turnsOnFirstMessage,
  type TreeNode,
} from "../../extension/vscodeFree/testTree.ts";

const A = "file:///work/a.test.ts";
const B = "file:///work/b%20c.test.ts";
const range = (start: number, end: number) => ({ start: { line: start, character: 0 }, end: { line: end, character: 2 } });

function item(
  uri: string,
  path: string[],
  kind: "test" | "describe",
  children: TestItem[] = [],
  source: "static" | "run" = "static",
  lines?: [number, number],
): TestItem {
  return { id: TestId.of(uri, path), label: path[path.length - 1]!, kind, source, children, ...(lines ? { range: range(lines[0], lines[1]) } : {}) };
}

/** A tree as `label (kind, source)` lines, children indented. */
function outline(node: TreeNode | undefined, depth = 0): string[] {
  if (!node) return [];
  const line = `${"  ".repeat(depth)}${node.label} (${node.kind}, ${node.source})${node.description ? ` ${node.description}` : ""}`;
  return [line, ...node.children.flatMap((child) => outline(child, depth + 1))];
}

const loopTree = [
  item(
    A,
    ["loop"],
    "describe",
    [item(A, ["loop", "stops"], "test", [], "static", [2, 4]), item(A, ["loop", "needs two"], "test", [], "static", [6, 8])],
    "static",
    [1, 9],
  ),
  item(A, ["top"], "test", [], "static", [11, 13]),
];

function run(workflow: string, ending = "completed", problems: WorkflowRun["problems"] = []): WorkflowRun {
  return { workflow, ending, turns: 2, durationMs: 3.4, problems, transcript: `run ${workflow} · ${ending}\n`, location: { uri: A, range: range(3, 3) } };
}

describe("the test tree", () => {
  test("a discovered tree replaces the file's children and leaves the other files alone", () => {
    const tree = new TestTree();
    tree.addFile(B);
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    expect(outline(tree.file(A))).toEqual([
      "a.test.ts (file, disk)",
      "  loop (describe, static)",
      "    stops (test, static)",
      "    needs two (test, static)",
      "  top (test, static)",
    ]);
    tree.discovered({ textDocument: { uri: A }, tests: [item(A, ["top"], "test"), item(A, ["made at run time"], "test", [], "run")] });
    expect(outline(tree.file(A))).toEqual(["a.test.ts (file, disk)", "  top (test, static)", "  made at run time (test, run)"]);
    expect(outline(tree.file(B))).toEqual(["b c.test.ts (file, disk)"]);
    expect(tree.fileUris()).toEqual([B, A]);
  });

  test("a test only a run's progress named (a file never opened) gets its describes and itself", () => {
    const tree = new TestTree();
    const id = TestId.of(B, ["suite", "inner", "a/b test"]);
    expect(tree.ensureTest(id).id).toBe(id);
    expect(outline(tree.file(B))).toEqual([
      "b c.test.ts (file, disk)",
      "  suite (describe, progress)",
      "    inner (describe, progress)",
      "      a/b test (test, progress)",
    ]);
    expect(tree.ensureTest(id)).toBe(tree.find(id)!);
    expect(tree.file(B)!.children.length).toBe(1);
  });

  test("a transcript's runs become the test's children with no gutter icon of their own, survive rediscovery, and go with the test", () => {
    const tree = new TestTree();
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    const stops = TestId.of(A, ["loop", "stops"]);
    const transcript: TestTranscript = { test: stops, status: "passed", durationMs: 5, runs: [run("review"), run("triage", "failed")] };
    const node = tree.setRuns(transcript);
    expect(outline(node)).toEqual(["stops (test, static)", "  run review (run, run) completed · 2 turns · 3 ms", "  run triage (run, run) failed · 2 turns · 3 ms"]);
    expect(node.children[0]!.id).toBe(runNodeId(stops, 0));
    // In the file where testWorkflow was called, with no range: VS Code draws a gutter icon at each range.
    expect(node.children[0]!.uri).toBe(A);
    expect(node.children[0]!.range).toBeUndefined();
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    expect(tree.find(runNodeId(stops, 1))?.label).toBe("run triage");
    tree.discovered({ textDocument: { uri: A }, tests: [item(A, ["top"], "test")] });
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    expect(tree.find(stops)?.children).toEqual([]);
  });

  test("ids name themselves: a run node belongs to its test, a describe runs the tests inside it", () => {
    const tree = new TestTree();
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    const stops = TestId.of(A, ["loop", "stops"]);
    expect(testIdOf(runNodeId(stops, 0))).toBe(stops);
    expect(TestId.parse(testIdOf(runNodeId(stops, 0)))).toEqual({ uri: A, path: ["loop", "stops"] });
    expect(tree.runIds([TestId.of(A, ["loop"]), runNodeId(stops, 0), A, TestId.of(A, ["top"])])).toEqual([
      stops,
      TestId.of(A, ["loop", "needs two"]),
      A,
      TestId.of(A, ["top"]),
    ]);
    tree.discovered({ textDocument: { uri: B }, tests: [item(B, ["empty"], "describe")] });
    expect(tree.runIds([TestId.of(B, ["empty"])])).toEqual([B]);
  });

  test("the test at a line is the innermost one whose range holds it", () => {
    const tree = new TestTree();
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    expect(tree.testAt(A, 3)?.label).toBe("stops");
    expect(tree.testAt(A, 5)?.label).toBe("loop");
    expect(tree.testAt(A, 12)?.label).toBe("top");
    expect(tree.testAt(A, 10)).toBeUndefined();
    expect(tree.testAt(B, 3)).toBeUndefined();
  });

  test("removing a file forgets it", () => {
    const tree = new TestTree();
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    expect(tree.removeFile(A)).toBe(true);
    expect(tree.file(A)).toBeUndefined();
    expect(tree.find(TestId.of(A, ["top"]))).toBeUndefined();
  });
});

describe("run states", () => {
  const one = TestId.of(A, ["loop", "stops"]);
  const two = TestId.of(A, ["loop", "needs two"]);
  const location = { uri: A, range: range(6, 6) };

  test("a progress sequence becomes enqueued, started and final states, then nothing after end", () => {
    const states = new RunStates();
    const sequence: TestRunProgressMessage[] = [
      { type: "enqueued", test: one },
      { type: "enqueued", test: two },
      { type: "started", test: one },
      { type: "started", test: one },
      { type: "passed", test: one, durationMs: 4 },
      { type: "output", text: "log\n" },
      { type: "started", test: two },
      { type: "failed", test: two, durationMs: 7, messages: [{ message: "expected 1 to be 2", expected: "2", actual: "1", location }] },
      { type: "started", test: two },
      { type: "end" },
      { type: "passed", test: two, durationMs: 1 },
    ];
    expect(sequence.flatMap((message) => states.apply(message))).toEqual([
      { test: one, state: "enqueued" },
      { test: two, state: "enqueued" },
      { test: one, state: "started" },
      { test: one, state: "passed", durationMs: 4 },
      { test: two, state: "started" },
      { test: two, state: "failed", durationMs: 7, messages: [{ message: "expected 1 to be 2", expected: "2", actual: "1", location }] },
    ]);
    expect(states.ended).toBe(true);
    expect(states.interrupted).toBe(false);
    expect(states.stateOf(two)).toBe("failed");
  });

  test("a run's counts are by test: a test with three testWorkflow runs counts once, and only tests get a result", () => {
    const tree = new TestTree();
    tree.discovered({ textDocument: { uri: A }, tests: loopTree });
    const three = tree.setRuns({ test: one, status: "passed", durationMs: 9, runs: [run("a"), run("b"), run("c", "failed")] });
    tree.setRuns({ test: two, status: "failed", durationMs: 9, runs: [run("a", "stalled"), run("b")] });
    const top = TestId.of(A, ["top"]);
    const states = new RunStates();
    const changes = [
      ...states.apply({ type: "enqueued", test: one }),
      ...states.apply({ type: "passed", test: one, durationMs: 4 }),
      ...states.apply({ type: "failed", test: two, durationMs: 7, messages: [{ message: "no" }] }),
      ...states.apply({ type: "skipped", test: top }),
      ...states.apply({ type: "end" }),
    ];
    expect(three.children.map((child) => child.kind)).toEqual(["run", "run", "run"]);
    expect(changes.map((change) => `${tree.find(change.test)?.kind} ${change.state}`)).toEqual(["test enqueued", "test passed", "test failed", "test skipped"]);
    expect(states.counts()).toEqual({ passed: 1, failed: 1, skipped: 1 });
  });

  test("an errored test counts as failed, and a test still going counts as nothing", () => {
    const states = new RunStates();
    states.apply({ type: "started", test: one });
    states.apply({ type: "started", test: two });
    states.apply({ type: "passed", test: one, durationMs: 1 });
    expect(states.counts()).toEqual({ passed: 1, failed: 0, skipped: 0 });
    states.interrupt("the server was killed");
    expect(states.counts()).toEqual({ passed: 1, failed: 1, skipped: 0 });
  });

  test("a skipped test is final too", () => {
    const states = new RunStates();
    expect([...states.apply({ type: "skipped", test: one }), ...states.apply({ type: "enqueued", test: one })]).toEqual([{ test: one, state: "skipped" }]);
  });

  test("an interrupted run errors the tests it had not finished, once", () => {
    const states = new RunStates();
    states.apply({ type: "enqueued", test: one });
    states.apply({ type: "enqueued", test: two });
    states.apply({ type: "started", test: one });
    states.apply({ type: "passed", test: one, durationMs: 1 });
    states.apply({ type: "started", test: two });
    expect(states.interrupt("the server was killed")).toEqual([{ test: two, state: "errored", messages: [{ message: "the server was killed" }] }]);
    expect(states.interrupted).toBe(true);
    expect(states.interrupt("again")).toEqual([]);
    expect(states.apply({ type: "passed", test: two, durationMs: 1 })).toEqual([]);
  });
});

describe("failure messages", () => {
  const schemaProblem = {
    code: "schema-mismatch",
    message: 'agent "writer" turn 1: it asks for NOTE; its script answers STEP: at /title NOTE wants a string, STEP has no title. It was asked: Title it.',
    expected: '{\n  "type": "object"\n}',
    actual: '{\n  "type": "boolean"\n}',
  };
  const transcript: TestTranscript = {
    test: TestId.of(A, ["t"]),
    status: "failed",
    durationMs: 1,
    runs: [run("note", "failed", [schemaProblem, { code: "stall", message: "the run stalled" }])],
  };

  test("a schema mismatch's message gets both schemas as expected and actual", () => {
    // The server's diagnostic leaves out the problem's "It was asked": the turn before `: ` matches.
    const message = {
      message: 'agent "writer" turn 1: it asks for NOTE; its script answers STEP: at /title NOTE wants a string, STEP has no title',
      location: { uri: A, range: range(9, 9) },
    };
    expect(withDiffs([message, { message: "the run stalled" }], transcript)).toEqual([
      { ...message, expected: schemaProblem.expected, actual: schemaProblem.actual },
      { message: "the run stalled" },
    ]);
  });

  test("a message that has expected and actual (a failing expect) keeps its own", () => {
    const message = { message: schemaProblem.message, expected: "2", actual: "1" };
    expect(withDiffs([message], transcript)).toEqual([message]);
    expect(withDiffs([{ message: "x" }], undefined)).toEqual([{ message: "x" }]);
    expect(withDiffs([{ message: 'agent "reader" turn 1: it asks for text' }], transcript)).toEqual([{ message: 'agent "reader" turn 1: it asks for text' }]);
  });

  test("one mark per problem: a message a diagnostic marks goes to VS Code with no location, so VS Code draws no inline message over the squiggle", () => {
    const marked = { message: 'agent "writer" was asked 1 turn; its script has 2', location: { uri: A, range: range(9, 9) }, diagnostic: true as const };
    expect(messageLocation(marked)).toBeUndefined();
    // Nor the turns as its call stack: VS Code would draw it at their first frame in the file.
    expect(turnsOnFirstMessage([marked])).toBe(false);
    expect(turnsOnFirstMessage([marked, { message: "expect(1).toBe(2)", location: { uri: A, range: range(3, 3) } }])).toBe(false);
  });

  test("a plain failure (a failing expect) keeps its place and carries the turns, as Vitest's extension shows one", () => {
    const plain = { message: "expect(received).toBe(expected)", expected: "2", actual: "1", location: { uri: A, range: range(3, 3) } };
    expect(messageLocation(plain)).toEqual(plain.location);
    expect(turnsOnFirstMessage([plain])).toBe(true);
    expect(turnsOnFirstMessage([])).toBe(false);
  });

  test("a failed message keeps the server's mark through the run's states", () => {
    const states = new RunStates();
    const test = TestId.of(A, ["t"]);
    const wire = { message: "the run stalled", location: { uri: A, range: range(4, 4) }, diagnostic: true as const };
    expect(states.apply({ type: "failed", test, durationMs: 1, messages: [wire] })).toEqual([{ test, state: "failed", durationMs: 1, messages: [wire] }]);
  });

  test("output uses the terminal's line ends", () => {
    expect(terminalText("a\nb\r\nc")).toBe("a\r\nb\r\nc");
  });
});

describe("debug runs", () => {
  test("the -t pattern matches exactly the chosen tests, their names taken literally", () => {
    const pattern = new RegExp(testNamePattern([["loop", "a (b)?"], ["top"]]));
    expect(pattern.test("loop a (b)?")).toBe(true);
    expect(pattern.test("top")).toBe(true);
    expect(pattern.test("loop a b")).toBe(false);
    expect(pattern.test("top two")).toBe(false);
  });

  test("the CLI's json report becomes progress for the same test ids", () => {
    const report = {
      files: [
        {
          file: "/work/a.test.ts",
          tests: [
            { path: ["loop", "stops"], status: "passed", durationMs: 3 },
            {
              path: ["top"],
              status: "failed",
              durationMs: 2,
              error: { message: "expected 1", expected: "1", actual: "2", location: { file: "/work/a.test.ts", line: 12, column: 5 } },
            },
            { path: ["later"], status: "todo", durationMs: 0 },
          ],
        },
        { file: "/work/b c.test.ts", tests: [], error: { message: "SyntaxError: bad" } },
      ],
      passed: 1,
      failed: 1,
      skipped: 1,
    };
    const uriOf = (file: string) => `file://${file.replace(/ /g, "%20")}`;
    expect(progressOfCliReport(`debugger attached\n${JSON.stringify(report, null, 2)}\n`, uriOf)).toEqual([
      { type: "passed", test: TestId.of(A, ["loop", "stops"]), durationMs: 3 },
      {
        type: "failed",
        test: TestId.of(A, ["top"]),
        durationMs: 2,
        messages: [
          { message: "expected 1", expected: "1", actual: "2", location: { uri: A, range: { start: { line: 11, character: 0 }, end: { line: 11, character: 0 } } } },
        ],
      },
      { type: "skipped", test: TestId.of(A, ["later"]) },
      { type: "output", text: "SyntaxError: bad\n" },
      { type: "end" },
    ]);
    expect(progressOfCliReport("no report here", uriOf)).toBeUndefined();
  });
});

describe("continuous runs", () => {
  test("a continuous run of everything reruns every affected test file, each once", () => {
    expect(affectedInScope(["file:///p/a.test.ts", "file:///p/b.test.ts", "file:///p/a.test.ts"], undefined)).toEqual(["file:///p/a.test.ts", "file:///p/b.test.ts"]);
  });

  test("a continuous run of some files reruns only the affected ones among them", () => {
    expect(affectedInScope(["file:///p/a.test.ts", "file:///p/b.test.ts"], ["file:///p/b.test.ts", "file:///p/c.test.ts"])).toEqual(["file:///p/b.test.ts"]);
  });
});
