// Tests that call testWorkflow through a helper: the static pass cannot tie their entries to a
// call, so the run's sites do. Turns and problems land on the entries each test wrote. The check
// helpers themselves are tried here too: a wrong annotation fails, with a diff that says what.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { parseFixture, renderFixture } from "./check/annotations.ts";
import { checkActionResult, checkActions, rewritten as rewrittenText } from "./check/checkActions.ts";
import { checkDiagnostics } from "./check/checkDiagnostics.ts";
import { checkHints } from "./check/checkHints.ts";
import { checkHovers } from "./check/checkHovers.ts";
import { checkLenses } from "./check/checkLenses.ts";
import { openFixture, type OpenedFixture } from "./check/openFixture.ts";
import { MISTAKES, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

const HELPER = `import { test } from "bun:test";
import { answer, testWorkflow, type Script } from "agentswf/testing";
import { loop, STEP } from "./workflows";

const runLoop = (worker: Script) => testWorkflow(loop, { agents: { worker } });

test("stops at once", async () => {
  await runLoop(answer(STEP, { done: true }));
//              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered
});

test("needs a second step", async () => {
  await runLoop([answer(STEP, { done: false })]);
//               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[list-exhausted]: agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.
//               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered
});
`;

let helper: OpenedFixture;

test(
  "a test calling testWorkflow through a helper gets its turns and problems on the entries it wrote",
  async () => {
    helper = await openFixture(server, join(MISTAKES, "virtual-helper.test.ts"), HELPER);
    checkDiagnostics(helper);
    await checkHints(helper);
  },
  SLOW,
);

/** The message a check fails with. */
async function failureOf(check: () => unknown): Promise<string> {
  try {
    await check();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the check passed");
}

/** The helper fixture with one line of it replaced: the same text, other annotations. */
const rewritten = (from: string, to: string): OpenedFixture => {
  if (!HELPER.includes(from)) throw new Error(`the fixture has no ${from}`);
  return { ...helper, fixture: parseFixture(HELPER.replace(from, to)) };
};

describe("the check helpers", () => {
  test("an annotated fixture is its text without the annotations, and writing them back gives the fixture", () => {
    const fixture = parseFixture(HELPER);
    expect(fixture.text).toBe(
      HELPER.split("\n")
        .filter((line) => !line.startsWith("//"))
        .join("\n"),
    );
    expect(fixture.annotations.map((annotation) => [annotation.range, annotation.tag])).toEqual([
      [{ start: { line: 7, character: 16 }, end: { line: 7, character: 44 } }, "hint"],
      [{ start: { line: 11, character: 17 }, end: { line: 11, character: 46 } }, "error[list-exhausted]"],
      [{ start: { line: 11, character: 17 }, end: { line: 11, character: 46 } }, "hint"],
    ]);
    expect(renderFixture(fixture.text, fixture.annotations)).toBe(HELPER);
  });

  test("a text over several lines, an empty range, a range to a later line and column 0 are written back as they were read", () => {
    const annotated = ["x = 1;", "| lens[turnlens.runFile]: ▶ Run file", "^^^^^^…+1:2 hover: first", "|", "| third", "y = 2;"].join("\n");
    const fixture = parseFixture(annotated);
    expect(fixture).toEqual({
      text: "x = 1;\ny = 2;",
      annotations: [
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, tag: "lens[turnlens.runFile]", text: "▶ Run file" },
        { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 2 } }, tag: "hover", text: "first\n\nthird" },
      ],
    });
    expect(renderFixture(fixture.text, fixture.annotations)).toBe(annotated);
  });

  test("an annotation past the end of its line, or with no line above, is refused naming the fixture's line", () => {
    expect(() => parseFixture("ab\n// ^^^ hint: x")).toThrow("fixture line 2: the markers run past the end of the line above (2 characters)");
    expect(() => parseFixture("^ hint: x\nab")).toThrow("fixture line 1: an annotation needs a line of code above it");
  });

  test(
    "a wrong hint label fails with a diff of the hint written and the hint the server gave",
    async () => {
      const wrong = rewritten("^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered", "^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 2 answered");
      expect(await failureOf(() => checkHints(wrong))).toBe(
        [
          "checkHints: the server's results differ from the annotations (- written, + the server's):",
          '  test("stops at once", async () => {',
          "    await runLoop(answer(STEP, { done: true }));",
          "- //              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 2 answered",
          "+ //              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered",
          "  });",
          "  ",
        ].join("\n"),
      );
    },
    SLOW,
  );

  test(
    "a diagnostic not written fails, showing it where the server put it; one written but not given fails too",
    async () => {
      const missing = rewritten(/\/\/ +\^+ error\[list-exhausted\].*\n/.exec(HELPER)?.[0] ?? "", "");
      const message = await failureOf(() => checkDiagnostics(missing));
      expect(message).toContain(
        '+ //               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[list-exhausted]: agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.',
      );
      const invented = rewritten(
        'hint: worker · turn 1 answered\n});\n\ntest("needs',
        'hint: worker · turn 1 answered\n//              ^^^^^^ warning[entry-never-reached, unnecessary]: never\n});\n\ntest("needs',
      );
      expect(await failureOf(() => checkDiagnostics(invented))).toContain("- //              ^^^^^^ warning[entry-never-reached, unnecessary]: never");
    },
    SLOW,
  );

  test(
    "a hover written with the wrong range or text fails with both, and a hover where there is none fails as nohover",
    async () => {
      const wrong = rewritten(
        "//              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered",
        "//              ^^^^^^ hover: not this\n//              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered",
      );
      const message = await failureOf(() => checkHovers(wrong));
      expect(message).toContain("- //              ^^^^^^ hover: not this");
      expect(message).toContain("+ //              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hover: Turnlens · **worker · turn 1 answered**");
      const nowhere = rewritten("{ worker } });\n", "{ worker } });\n//^ hover: something\n");
      expect(await failureOf(() => checkHovers(nowhere))).toContain("+ //^ nohover");
    },
    SLOW,
  );

  test(
    "lenses are written in column 0 without //, an empty range as |, and a wrong title fails",
    async () => {
      const lensed = HELPER.replace('import { test } from "bun:test";\n', 'import { test } from "bun:test";\n| lens[turnlens.runFile]: ▶ Run file\n')
        .replace(
          'test("stops at once", async () => {\n',
          'test("stops at once", async () => {\n^^^^ lens[turnlens.runTest]: ▶ Run\n^^^^ lens: ✓ 1 turn · N ms\n^^^^ lens[turnlens.checkAssertions]: Check what this test asserts\n',
        )
        .replace(
          'test("needs a second step", async () => {\n',
          'test("needs a second step", async () => {\n^^^^ lens[turnlens.runTest]: ▶ Run\n^^^^ lens: ✗ 1 problem\n',
        );
      const opened = { ...helper, fixture: parseFixture(lensed) };
      const normalize = (title: string) => title.replace(/\d+ ms$/, "N ms");
      await checkLenses(opened, { normalize });
      const wrong = { ...helper, fixture: parseFixture(lensed.replace("lens: ✗ 1 problem", "lens: ✗ 2 problems")) };
      expect(await failureOf(() => checkLenses(wrong, { normalize }))).toContain(
        ["  ^^^^ lens[turnlens.runTest]: ▶ Run", "- ^^^^ lens: ✗ 2 problems", "+ ^^^^ lens: ✗ 1 problem"].join("\n"),
      );
    },
    SLOW,
  );

  test(
    "the quick fixes over a range are its action annotations, and an action leaving another text than the one after fails with a diff",
    async () => {
      const opened = await openFixture(
        server,
        join(MISTAKES, "virtual-actions.test.ts"),
        `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { loop, STEP } from "./workflows";

test("needs a second step", async () => {
  await testWorkflow(loop, { agents: { worker: [answer(STEP, { done: false })] } });
//                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[list-exhausted]: agent "worker" turn 2: its script has 1 turn. It was asked: Do step 2.
//                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action[preferred]: Add answer(STEP, { done: false }) for worker turn 2
//                                             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Add noAnswer.silent() for worker turn 2
});
`,
      );
      checkDiagnostics(opened);
      await checkActions(opened);
      const title = "Add answer(STEP, { done: false }) for worker turn 2";
      const list = "[answer(STEP, { done: false })]";
      await checkActionResult(opened, title, rewrittenText(opened.fixture.text, [list, "[answer(STEP, { done: false }), answer(STEP, { done: false })]"]));
      const wrongAfter = rewrittenText(opened.fixture.text, [list, "[answer(STEP, { done: false }), answer(STEP, { done: true })]"]);
      expect(await failureOf(() => checkActionResult(opened, title, wrongAfter))).toBe(
        [
          `checkActionResult: "${title}" leaves another text than the one after (- written, + the server's):`,
          "  ",
          '  test("needs a second step", async () => {',
          "-   await testWorkflow(loop, { agents: { worker: [answer(STEP, { done: false }), answer(STEP, { done: true })] } });",
          "+   await testWorkflow(loop, { agents: { worker: [answer(STEP, { done: false }), answer(STEP, { done: false })] } });",
          "  });",
          "  ",
        ].join("\n"),
      );
      // The helper fixture's list is reached through a helper: no quick fix is offered there, and saying one is fails.
      const second = "//               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ hint: worker · turn 1 answered\n";
      const claimed = rewritten(second, `${second}//               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Add noAnswer.silent() for worker turn 2\n`);
      expect(await failureOf(() => checkActions(claimed))).toContain("- //               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ action: Add noAnswer.silent() for worker turn 2");
    },
    SLOW,
  );
});
