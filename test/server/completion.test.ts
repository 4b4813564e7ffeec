// Completion inside answer(SCHEMA, value), after noAnswer. and in a decisions script, over schemas
// of examples/: the server learns each answer's schema from the file's first run, then completes
// text typed after it (no run in between: the manual timer never fires the edit's debounce).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CompletionItem, CompletionList } from "vscode-languageserver-protocol";
import { join } from "node:path";
import { EDITOR_CAPABILITIES, ROOT, SLOW, TestServer } from "./harness.ts";

const FILE = join(ROOT, "examples", "completion-fixture.test.ts");
const TEXT = `import { test } from "bun:test";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import delivery, { PLAN } from "./delivery/workflow";
import featureDelivery, { VERDICT } from "./feature-delivery/workflow";
import incident, { TRIAGE } from "./incident-tools/workflow";
import triage from "./triage/workflow";
import Type from "typebox";

const REVIEW = Type.Object({
  review: Type.Object({ verdict: Type.Union([Type.Literal("approve"), Type.Literal("reject")]), notes: Type.Optional(Type.String()) }),
  findings: Type.Array(Type.Object({ file: Type.String({ minLength: 1, description: "The file, from the repository's root." }), line: Type.Integer({ minimum: 1 }) }), { minItems: 1 }),
});

test("answers to complete", async () => {
  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: true, steps: [] }) } }).catch(() => {});
  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, { kind: "ready", summary: "ok" }) } }).catch(() => {});
  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: "low", why: "rare" }) } }).catch(() => {});
  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }] }) } }).catch(() => {});
  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "payments", bug: true, urgency: 2 } } }).catch(() => {});
});
`;

let server: TestServer;
let uri: string;
beforeAll(async () => {
  server = await TestServer.started({
    capabilities: { ...EDITOR_CAPABILITIES, textDocument: { ...EDITOR_CAPABILITIES.textDocument, completion: { completionItem: { snippetSupport: true } } } },
  });
  uri = (await server.openAndRun(FILE, TEXT)).uri;
}, SLOW);
afterAll(() => server.dispose());

/** The items at the `|` of `line` once it replaces the line that starts like it (its first 20 characters). */
async function completeAt(line: string): Promise<CompletionItem[]> {
  const cursor = line.indexOf("|");
  const written = line.replace("|", "");
  const lines = TEXT.split("\n");
  const at = lines.findIndex((candidate) => candidate.startsWith(written.slice(0, 20)));
  if (at === -1) throw new Error(`no line starts like ${written.slice(0, 20)}`);
  lines[at] = written;
  await server.change(uri, lines.join("\n"));
  const result = await server.request<CompletionList | null>("textDocument/completion", { textDocument: { uri }, position: { line: at, character: cursor } });
  return result?.items ?? [];
}

/** label, detail and what is inserted, one string per item. */
const shown = (items: CompletionItem[]) =>
  items.map((item) => `${item.label} — ${item.detail} — ${item.textEdit && "newText" in item.textEdit ? item.textEdit.newText : ""}`);

describe("completion in a test file", () => {
  test("the server says it completes, on the characters that open a key, a value or a member", async () => {
    const started = new TestServer();
    try {
      const result = await started.initialize();
      expect(result.capabilities.completionProvider).toEqual({ triggerCharacters: [".", '"', "'", "{", "[", ":"], resolveProvider: false });
    } finally {
      started.dispose();
    }
  });

  test("in an empty object: the schema's property names, required first, each with its type and a value it accepts", async () => {
    const items = await completeAt(`  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { | }) } }).catch(() => {});`);
    expect(shown(items)).toEqual([
      "ready — required · boolean — ready: ${1:false}",
      "steps — required · array of string — steps: [$1]",
      'missing — optional · string — missing: "${1:}"',
    ]);
    expect(items.map((item) => item.sortText)).toEqual(["0000", "0001", "1002"]);
  });

  test("after a partial name: the names not yet written, replacing what was typed", async () => {
    const line = `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: true, st| }) } }).catch(() => {});`;
    const items = await completeAt(line);
    expect(items.map((item) => item.label)).toEqual(["steps", "missing"]);
    const edit = items[0]!.textEdit as { range: { start: { character: number }; end: { character: number } } };
    expect([edit.range.start.character, edit.range.end.character]).toEqual([line.indexOf("st|"), line.indexOf("|")]);
  });

  test("in a string of a union of literals: its values, inside the quotes", async () => {
    const items = await completeAt(`  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: "|", why: "rare" }) } }).catch(() => {});`);
    expect(shown(items)).toEqual(['low — "low" | "high" — low', 'high — "low" | "high" — high']);
  });

  test("at a value of a union of literals, outside quotes: each literal quoted", async () => {
    const items = await completeAt(`  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: |, why: "rare" }) } }).catch(() => {});`);
    expect(items.map((item) => item.label)).toEqual(['"low"', '"high"']);
  });

  test("at a boolean value: true and false", async () => {
    const items = await completeAt(
      `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: |, steps: [] }) } }).catch(() => {});`,
    );
    expect(items.map((item) => item.label)).toEqual(["true", "false"]);
  });

  test("in an array: an item of the array's items schema", async () => {
    const items = await completeAt(
      `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: true, steps: [|] }) } }).catch(() => {});`,
    );
    expect(shown(items)).toEqual(['"" — string — "${1:}"']);
  });

  test("in a discriminated union: the names of the branch its kind names, and the kinds at the kind", async () => {
    const names = await completeAt(
      `  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, { kind: "changes", | }) } }).catch(() => {});`,
    );
    expect(shown(names)).toEqual(["changes — required · array of string — changes: [$1]"]);
    const kinds = await completeAt(
      `  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, { kind: "|" }) } }).catch(() => {});`,
    );
    expect(kinds.map((item) => item.label)).toEqual(["ready", "changes", "inconclusive"]);
  });

  test("as a whole value: a snippet of each object the schema accepts", async () => {
    const items = await completeAt(`  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, |) } }).catch(() => {});`);
    expect(shown(items)).toEqual([
      '{ kind: "ready", summary: "" } — object with kind, summary — { kind: "${1:ready}", summary: "${2:}" }',
      '{ kind: "changes", changes: [] } — object with kind, changes — { kind: "${1:changes}", changes: [$2] }',
      '{ kind: "inconclusive", reason: "" } — object with kind, reason — { kind: "${1:inconclusive}", reason: "${2:}" }',
    ]);
    expect(items[0]!.documentation).toEqual({ kind: "markdown", value: '- `kind`: "ready"\n- `summary`: string' });
  });

  test("in a nested object: the names of the object at the cursor's path", async () => {
    const items = await completeAt(
      `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { | }, findings: [{ file: "a.ts", line: 1 }] }) } }).catch(() => {});`,
    );
    expect(shown(items)).toEqual(['verdict — required · "approve" | "reject" — verdict: "${1:approve}"', 'notes — optional · string — notes: "${1:}"']);
  });

  test("in an array item: the item's names, with each description as documentation, and a whole item before it", async () => {
    const names = await completeAt(
      `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }, { | }] }) } }).catch(() => {});`,
    );
    expect(shown(names)).toEqual(['file — required · string, at least 1 characters — file: "${1:x}"', "line — required · integer, ≥ 1 — line: ${1:1}"]);
    expect(names[0]!.documentation).toEqual({ kind: "markdown", value: "The file, from the repository's root." });
    const items = await completeAt(
      `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }, |] }) } }).catch(() => {});`,
    );
    expect(shown(items)).toEqual(['{ file: "x", line: 1 } — an item: object with file, line — { file: "${1:x}", line: ${2:1} }']);
  });

  test("after noAnswer.: each way to end a turn without an answer", async () => {
    const items = await completeAt(`  await testWorkflow(incident, { agents: { triager: noAnswer.| } }).catch(() => {});`);
    expect(items.map((item) => item.label)).toEqual(["silent", "blocked", "failed", "timedOut", "hang", "interrupted", "needsLogin"]);
    expect(items[3]!.documentation).toEqual({ kind: "markdown", value: "Ends `timed-out` at once." });
  });

  test("in a decisions script: the question ids of the decision the run asked, then a question's options", async () => {
    const ids = await completeAt(`  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { | } } }).catch(() => {});`);
    expect(ids.map((item) => `${item.label} — ${item.detail}`)).toEqual([
      'team — choice · "payments" | "accounts" | "frontend"',
      "bug — yes-no · true | false",
      "urgency — score · 0 low | 1 medium | 2 high",
    ]);
    expect(ids.map((item) => item.textEdit && "range" in item.textEdit && item.textEdit.newText)).toEqual([
      'team: ${1|"payments","accounts","frontend"|}',
      "bug: ${1|true,false|}",
      "urgency: ${1|0,1,2|}",
    ]);
    const options = await completeAt(
      `  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "|", bug: true } } }).catch(() => {});`,
    );
    expect(options.map((item) => item.label)).toEqual(["payments", "accounts", "frontend"]);
  });

  test("a score question is offered its level indexes, the shorthand the run takes, never a level's name, which it refuses", async () => {
    const levels = await completeAt(
      `  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "payments", bug: true, urgency: | } } }).catch(() => {});`,
    );
    expect(levels.map((item) => `${item.label} — ${item.detail}`)).toEqual(["0 — score · 0 low", "1 — score · 1 medium", "2 — score · 2 high"]);
    const inString = await completeAt(
      `  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "payments", bug: true, urgency: "|" } } }).catch(() => {});`,
    );
    expect(inString).toEqual([]);
  });

  test("a value nested 5,000 brackets deep completes nothing, and the server completes on after it", async () => {
    const deep = `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { steps: ${"[".repeat(5000)}|${"]".repeat(5000)} }) } }).catch(() => {});`;
    const answered = await completeAt(deep).then(
      (items) => `items: ${items.length}`,
      (error: Error) => `error: ${error.message.split("\n")[0]}`,
    );
    expect(answered).toBe("items: 0");
    const items = await completeAt(`  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { | }) } }).catch(() => {});`);
    expect(items.map((item) => item.label)).toEqual(["ready", "steps", "missing"]);
  });

  test("outside any answer, noAnswer or decisions: nothing", async () => {
    const items = await completeAt(`  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: "low", why: "rare" }) } }).ca|tch(() => {});`);
    expect(items).toEqual([]);
  });
});
