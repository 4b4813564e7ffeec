// The quick fix "Add a test where reviewer times out": a copy of the nearest test that reaches the
// agent, written right after it in its file, with the agent's script replaced by the `noAnswer`
// entry that gives the outcome, its body cut after the `testWorkflow(...)` call and a TODO where
// the assertions go. The page's table says which entry gives which outcome.
import type { Range, TextEdit } from "vscode-languageserver";
import type { OutcomeKind } from "../../core/workflow/types.ts";
import type { AgentCoverage, Reach } from "../../core/coverage/outcomeCoverage.ts";
import type { StaticTestFile } from "../analysis/model.ts";
import { sameRange } from "../analysis/ranges.ts";

/** The entry that gives each outcome a test can ask for; `answered` needs a value, `cancelled` a cause. */
export const ENTRY_FOR_OUTCOME: Partial<Record<OutcomeKind, { entry: string; phrase: string }>> = {
  "timed-out": { entry: "noAnswer.timedOut()", phrase: "times out" },
  failed: { entry: "noAnswer.failed()", phrase: "fails" },
  blocked: { entry: "noAnswer.blocked()", phrase: "is blocked" },
  unanswered: { entry: "noAnswer.silent()", phrase: "does not answer" },
};

export interface AddedTest {
  title: string;
  /** The test file the new test goes in. */
  file: string;
  edits: TextEdit[];
}

/** The tests to copy from, nearest first: those where the agent only answered, then by file and line. */
export function nearestReaches(agent: AgentCoverage, workflowFile: string): Reach[] {
  const folder = workflowFile.slice(0, workflowFile.lastIndexOf("/") + 1);
  const score = (reach: Reach) => [reach.turns.every((turn) => turn.outcome === "answered") ? 0 : 1, reach.test.file.startsWith(folder) ? 0 : 1];
  return [...agent.reached].sort((left, right) => {
    const [a0 = 0, a1 = 0] = score(left);
    const [b0 = 0, b1 = 0] = score(right);
    return a0 - b0 || a1 - b1 || left.test.file.localeCompare(right.test.file) || (left.test.location?.line ?? 0) - (right.test.location?.line ?? 0);
  });
}

function offsetOf(lineStarts: number[], position: { line: number; character: number }): number {
  return (lineStarts[position.line] ?? 0) + position.character;
}

/** The edits adding the test, or undefined when the copied test's `agents` is not an object literal. */
export function addOutcomeTest(agentKey: string, outcome: OutcomeKind, reach: Reach, text: string, model: StaticTestFile): AddedTest | undefined {
  const wanted = ENTRY_FOR_OUTCOME[outcome];
  if (!wanted) return undefined;
  const testIndex = model.tests.findIndex((test) => test.kind === "test" && JSON.stringify(test.path) === JSON.stringify(reach.test.path));
  const test = model.tests[testIndex];
  if (!test) return undefined;
  const call = model.calls.find((each) => each.testIndex === testIndex && each.agents);
  const agents = call?.agents;
  if (!call || !agents) return undefined;
  const lineStarts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === "\n") lineStarts.push(index + 1);
  const at = (position: { line: number; character: number }) => offsetOf(lineStarts, position);
  const testStart = at(test.range.start);
  const testEnd = at(test.range.end);
  const callEnd = at(call.range.end);
  // The body up to the end of the line the testWorkflow call ends on; then the TODO; then the
  // test's own closing (`});`, `}, SLOW);`) from its body's last brace.
  const lineAfterCall = text.indexOf("\n", callEnd);
  const bodyEnd = lineAfterCall < 0 || lineAfterCall > testEnd ? callEnd : lineAfterCall;
  const closing = text.lastIndexOf("}", testEnd);
  if (closing < bodyEnd) return undefined;
  const indent = /^[ \t]*/.exec(text.slice(lineStarts[call.range.start.line] ?? 0))?.[0] ?? "  ";
  const script = agents.scripts.find((each) => each.key === agentKey);
  // Edits inside the copy, as offsets into the original text (applied last to first).
  const inner: Array<{ from: number; to: number; text: string }> = [];
  const keyText = /^[A-Za-z_$][\w$]*$/.test(agentKey) ? agentKey : JSON.stringify(agentKey);
  if (script && (sameRange(script.valueRange, script.keyRange) || sameRange(script.valueRange, script.propertyRange))) {
    // `{ lead }` or a method: the whole property becomes `lead: noAnswer.…()`.
    inner.push({ from: at(script.propertyRange.start), to: at(script.propertyRange.end), text: `${keyText}: ${wanted.entry}` });
  } else if (script) inner.push({ from: at(script.valueRange.start), to: at(script.valueRange.end), text: wanted.entry });
  else {
    // An exact key wins over a glob, so the new key alone changes that agent.
    const open = at(agents.objectRange.start) + 1;
    inner.push({ from: open, to: open, text: ` ${keyText}: ${wanted.entry},` });
  }
  const nameStart = text.indexOf(test.name, at(test.calleeRange.end));
  const name = `${agentKey} ${wanted.phrase}`;
  if (nameStart > 0 && nameStart < callEnd) inner.push({ from: nameStart - 1, to: nameStart + test.name.length + 1, text: JSON.stringify(name) });
  let copy = text.slice(testStart, bodyEnd);
  for (const edit of inner.sort((left, right) => right.from - left.from)) {
    if (edit.from < testStart || edit.to > bodyEnd) continue;
    copy = copy.slice(0, edit.from - testStart) + edit.text + copy.slice(edit.to - testStart);
  }
  const todo = `${indent}// TODO: assert what the workflow does when ${agentKey} ${wanted.phrase}`;
  const semicolon = text[testEnd] === ";" ? ";" : "";
  const newTest = `\n\n${copy}\n${todo}\n${text.slice(closing, testEnd)}${semicolon}`;
  const insertAt = testEnd + semicolon.length;
  const position = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && (lineStarts[line + 1] ?? 0) <= offset) line++;
    return { line, character: offset - (lineStarts[line] ?? 0) };
  };
  const edits: TextEdit[] = [];
  const testingImport = /import\s*\{([^}]*)\}\s*from\s*["'](?:agentswf|turnlens)\/testing["']/.exec(text);
  if (testingImport && !/\bnoAnswer\b/.test(testingImport[1] ?? "")) {
    const brace = testingImport.index + testingImport[0].indexOf("{") + 1;
    edits.push({ range: { start: position(brace), end: position(brace) } as Range, newText: " noAnswer," });
  }
  edits.push({ range: { start: position(insertAt), end: position(insertAt) }, newText: newTest });
  return { title: `Add a test where ${agentKey} ${wanted.phrase}`, file: reach.test.file, edits };
}
