// One view of what each script met, read by the inlay hints and the hovers alike: on a line where
// an agent's entries and a compactions entry stand together, the hint reads the turns first, then
// the compaction, and each entry's hover shows only what that entry met.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { Hover, Position } from "vscode-languageserver-protocol";
import { checkDiagnostics } from "./check/checkDiagnostics.ts";
import { checkHints } from "./check/checkHints.ts";
import { openFixture, type OpenedFixture } from "./check/openFixture.ts";
import { ROOT, SLOW, TestServer } from "./harness.ts";
import { rangeOf } from "./textRanges.ts";

const FIXTURES = join(ROOT, "test", "server", "fixtures");

const TEXT = `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { compacting } from "./operations";

test("the writer compacts once, scripted on one line", async () => {
  const run = await testWorkflow(compacting, { compactions: { writer: answer("Outline.") }, agents: { writer: [answer("Draft."), answer("Final note.")] } });
//                                                                          | hint: writer · turns 1–2 answered; +1 more
  expect(run.value).toEqual({ summary: "Outline.", note: "Final note." });
});
`;

let server: TestServer;
let opened: OpenedFixture;
beforeAll(async () => {
  server = await TestServer.started();
  opened = await openFixture(server, join(FIXTURES, "virtual-one-line.test.ts"), TEXT);
  checkDiagnostics(opened);
}, SLOW);
afterAll(() => server.dispose());

async function hoverAt(position: Position): Promise<string | undefined> {
  const found = await server.request<Hover | null>("textDocument/hover", { textDocument: { uri: opened.uri }, position });
  return found ? (found.contents as { value: string }).value.split("\n\n")[0] : undefined;
}

test(
  "a line with an agent's entries and a compactions entry reads the turns first, then the compaction",
  async () => {
    await checkHints(opened);
  },
  SLOW,
);

test(
  "each entry on that line hovers with only what it met",
  async () => {
    const inside = (needle: string) => {
      const { start } = rangeOf(opened.fixture.text, needle);
      return { line: start.line, character: start.character + 2 };
    };
    expect(await hoverAt(inside('answer("Outline.")'))).toBe('Turnlens · **writer · compaction 1 answered "Outline."**');
    expect(await hoverAt(inside('answer("Draft.")'))).toBe("Turnlens · **writer · turn 1 answered**");
    expect(await hoverAt(inside('answer("Final note.")'))).toBe("Turnlens · **writer · turn 2 answered**");
  },
  SLOW,
);
