// Every inlay hint over the examples/ folder's tests, run over the protocol, reads whole within VS
// Code's default `editor.inlayHints.maximumLength` (43), and on a line too long to see its end the
// hint stands after the entry's callee, where it is seen without scrolling (docs/language-server.md).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InlayHint } from "vscode-languageserver-protocol";
import { HINT_WIDTH, LONG_LINE } from "../../server/limits.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";

const WHOLE = { start: { line: 0, character: 0 }, end: { line: 100_000, character: 0 } };
const EXAMPLES = join(ROOT, "examples");

/** Every `*.test.ts` and `workflow.ts` under examples/, test files first (their runs feed the workflow's hints). */
function exampleFiles(): { tests: string[]; workflows: string[] } {
  const all = readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" }).map((path) => join(EXAMPLES, path));
  return { tests: all.filter((path) => path.endsWith(".test.ts")).sort(), workflows: all.filter((path) => path.endsWith("workflow.ts")).sort() };
}

const labelOf = (hint: InlayHint) => (typeof hint.label === "string" ? hint.label : hint.label.map((part) => part.value).join(""));

let server: TestServer;
const hints: Array<{ file: string; line: string; hint: InlayHint }> = [];
beforeAll(async () => {
  server = await TestServer.started();
  const { tests, workflows } = exampleFiles();
  const collect = async (file: string, uri: string) => {
    const lines = readFileSync(file, "utf8").split("\n");
    for (const hint of await server.request<InlayHint[]>("textDocument/inlayHint", { textDocument: { uri }, range: WHOLE })) {
      hints.push({ file, line: lines[hint.position.line] ?? "", hint });
    }
  };
  for (const file of tests) await collect(file, (await server.openAndRun(file)).uri);
  for (const file of workflows) await collect(file, await server.open(file));
}, SLOW * 10);
afterAll(() => server.dispose());

test("no hint over the examples' tests and workflows is longer than VS Code's default 43 characters", () => {
  expect(hints.length).toBeGreaterThan(40);
  expect(HINT_WIDTH).toBe(43);
  const tooLong = hints
    .filter(({ hint }) => labelOf(hint).length > HINT_WIDTH)
    .map(({ file, hint }) => `${file.slice(ROOT.length + 1)}:${hint.position.line + 1} ${labelOf(hint)}`);
  expect(tooLong).toEqual([]);
});

test("a hint on a line longer than 100 characters stands within its first 100 columns: after its entry's callee, else before the line's code", () => {
  const onLongLines = hints.filter(({ line }) => line.length > LONG_LINE);
  expect(onLongLines.length).toBeGreaterThan(0);
  const placed = onLongLines.map(({ file, line, hint }) => {
    const where = `${file.slice(ROOT.length + 1)}:${hint.position.line + 1}`;
    const column = hint.position.character;
    // Right after a callee (`answer`, `noAnswer.silent`, … then its `(`), or at the line's indent.
    const at = line[column] === "(" ? "after a callee" : column === line.search(/\S/) ? "before the code" : `column ${column}`;
    return { where, within: column <= LONG_LINE, at };
  });
  expect(placed.filter((one) => !one.within || one.at.startsWith("column"))).toEqual([]);
  expect(placed.some((one) => one.at === "after a callee")).toBe(true);
  expect(placed.some((one) => one.at === "before the code")).toBe(true);
});
