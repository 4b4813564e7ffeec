// Completion inside answer(SCHEMA, value), after noAnswer. and in a decisions script, over schemas
// of examples/: the server learns each answer's schema from the file's first run, then completes
// text typed after it (no run in between: the manual timer never fires the edit's debounce). Beside
// the editor's TypeScript (the default), whose labels a real TypeScript language service over the
// same text gives here (with the Turnlens TypeScript plugin, as in VS Code), no label twice; in an
// editor without one (`completionBesideTypeScript: false`), the names, literals and methods too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CompletionItem, CompletionList } from "vscode-languageserver-protocol";
import { join } from "node:path";
import ts from "typescript";
import { patchHost } from "../../tsPlugin/index.ts";
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
  stage: Type.Optional(Type.Unsafe<string>({ type: "string", enum: ["draft", "final"], description: "How far the review got." })),
});

test("answers to complete", async () => {
  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: true, steps: [] }) } }).catch(() => {});
  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, { kind: "ready", summary: "ok" }) } }).catch(() => {});
  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: "low", why: "rare" }) } }).catch(() => {});
  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }] }) } }).catch(() => {});
  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "payments", bug: true, urgency: 2 } } }).catch(() => {});
});
`;

const SNIPPETS = { ...EDITOR_CAPABILITIES, textDocument: { ...EDITOR_CAPABILITIES.textDocument, completion: { completionItem: { snippetSupport: true } } } };

/** The text with `line` in place of the line that starts like it (its first 20 characters), and the cursor's position (the `|`). */
function placed(line: string): { text: string; line: number; character: number } {
  const cursor = line.indexOf("|");
  const written = line.replace("|", "");
  const lines = TEXT.split("\n");
  const at = lines.findIndex((candidate) => candidate.startsWith(written.slice(0, 20)));
  if (at === -1) throw new Error(`no line starts like ${written.slice(0, 20)}`);
  lines[at] = written;
  return { text: lines.join("\n"), line: at, character: cursor };
}

/** The items `server` offers at the `|` of `line` once it replaces its line. */
async function completionsOf(server: TestServer, uri: string, line: string): Promise<CompletionItem[]> {
  const { text, line: at, character } = placed(line);
  await server.change(uri, text);
  const result = await server.request<CompletionList | null>("textDocument/completion", { textDocument: { uri }, position: { line: at, character } });
  return result?.items ?? [];
}

let server: TestServer;
let uri: string;
beforeAll(async () => {
  server = await TestServer.started({ capabilities: SNIPPETS, initializationOptions: { settings: { completionBesideTypeScript: false } } });
  uri = (await server.openAndRun(FILE, TEXT)).uri;
}, SLOW);
afterAll(() => server.dispose());

const completeAt = (line: string) => completionsOf(server, uri, line);

/** label, detail and what is inserted, one string per item. */
const shown = (items: CompletionItem[]) =>
  items.map((item) => `${item.label} — ${item.detail} — ${item.textEdit && "newText" in item.textEdit ? item.textEdit.newText : ""}`);

describe("completion in a test file, in an editor that runs no TypeScript server", () => {
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

/** Each place Turnlens completes, beside TypeScript: the line with its cursor, and the labels Turnlens adds there. */
const BESIDE_TYPESCRIPT: Array<{ place: string; line: string; adds: string[] }> = [
  {
    place: "an empty object: the required properties, written",
    line: `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { | }) } }).catch(() => {});`,
    adds: ["ready: false, steps: []"],
  },
  {
    place: "after a partial name: the required properties not yet written",
    line: `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: true, st| }) } }).catch(() => {});`,
    adds: ["steps: []"],
  },
  {
    place: "a string of a union of literals",
    line: `  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: "|", why: "rare" }) } }).catch(() => {});`,
    adds: [],
  },
  {
    place: "a union of literals, outside quotes",
    line: `  await testWorkflow(incident, { agents: { triager: answer(TRIAGE, { severity: |, why: "rare" }) } }).catch(() => {});`,
    adds: [],
  },
  {
    place: "a boolean",
    line: `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: |, steps: [] }) } }).catch(() => {});`,
    adds: [],
  },
  {
    place: "an array's item",
    line: `  await testWorkflow(delivery, { args: { ticket: "PAY-1" }, agents: { planner: answer(PLAN, { ready: true, steps: [|] }) } }).catch(() => {});`,
    adds: ['""'],
  },
  {
    place: "a whole value of a discriminated union: each object it accepts",
    line: `  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, |) } }).catch(() => {});`,
    adds: ['{ kind: "ready", summary: "" }', '{ kind: "changes", changes: [] }', '{ kind: "inconclusive", reason: "" }'],
  },
  {
    place: "a discriminated union's kind",
    line: `  await testWorkflow(featureDelivery, { args: { ticket: "F-1" }, agents: { reviewer: answer(VERDICT, { kind: "|" }) } }).catch(() => {});`,
    adds: [],
  },
  {
    place: "a new array item's properties",
    line: `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }, { | }] }) } }).catch(() => {});`,
    adds: ['file: "x", line: 1'],
  },
  {
    place: "an enum the types call a string",
    line: `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }], stage: "|" }) } }).catch(() => {});`,
    adds: ["draft", "final"],
  },
  {
    place: "after noAnswer.",
    line: `  await testWorkflow(incident, { agents: { triager: noAnswer.| } }).catch(() => {});`,
    adds: [],
  },
  {
    place: "a decision's question ids",
    line: `  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { | } } }).catch(() => {});`,
    adds: ["team", "bug", "urgency"],
  },
  {
    place: "a score question's levels",
    line: `  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "payments", bug: true, urgency: | } } }).catch(() => {});`,
    adds: ["0", "1", "2"],
  },
  {
    place: "a yes-no question's answers",
    line: `  await testWorkflow(triage, { args: { tickets: ["Refund charged twice"] }, decisions: { "triage-1": { team: "payments", bug: |, urgency: 2 } } }).catch(() => {});`,
    adds: [],
  },
];

/**
 * The labels TypeScript's own completion gives at each line's cursor, as VS Code shows them: one
 * language service over the same text (a file per line, one program), the served modules resolved
 * by the Turnlens TypeScript plugin to the declarations the build wrote, as in the editor.
 */
function typescriptLabels(lines: string[]): string[][] {
  const files = new Map(lines.map((line, index) => [join(ROOT, "examples", `completion-fixture-${index}.test.ts`), placed(line)]));
  const { options } = ts.convertCompilerOptionsFromJson(
    { target: "ES2022", lib: ["ES2023"], module: "preserve", moduleResolution: "bundler", strict: true, noEmit: true, skipLibCheck: true, types: [] },
    ROOT,
  );
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [...files.keys()],
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const text = files.get(name)?.text ?? ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: (compilerOptions) => ts.getDefaultLibFilePath(compilerOptions),
    fileExists: (name) => files.has(name) || ts.sys.fileExists(name),
    readFile: (name) => files.get(name)?.text ?? ts.sys.readFile(name),
    directoryExists: (name) => ts.sys.directoryExists(name),
    getDirectories: (name) => ts.sys.getDirectories(name),
  };
  patchHost(ts, host, join(ROOT, "dist", "types"));
  const service = ts.createLanguageService(host);
  return [...files].map(([file, { text, line, character }]) => {
    const offset = text.split("\n").slice(0, line).join("\n").length + 1 + character;
    return (service.getCompletionsAtPosition(file, offset, {}, undefined)?.entries ?? []).map((entry) => entry.name);
  });
}

describe("completion beside the editor's own TypeScript", () => {
  let beside: TestServer;
  let besideUri: string;
  let typescript: string[][];
  beforeAll(async () => {
    typescript = typescriptLabels(BESIDE_TYPESCRIPT.map(({ line }) => line));
    beside = await TestServer.started({ capabilities: SNIPPETS });
    besideUri = (await beside.openAndRun(FILE, TEXT)).uri;
  }, SLOW);
  afterAll(() => beside.dispose());

  test("TypeScript itself completes the answer's typed value: its property names, its literals, true and false, noAnswer's methods", () => {
    // Sorted: TypeScript's order is its own (a union's, a program's).
    const at = (place: string) => [...typescript[BESIDE_TYPESCRIPT.findIndex((entry) => entry.place === place)]!].sort();
    expect(at("an empty object: the required properties, written")).toEqual(["missing", "ready", "steps"]);
    expect(at("a string of a union of literals")).toEqual(["high", "low"]);
    expect(at("a union of literals, outside quotes")).toEqual(expect.arrayContaining(['"high"', '"low"', "true", "false"]));
    expect(at("after noAnswer.")).toEqual(["blocked", "failed", "hang", "interrupted", "needsLogin", "silent", "timedOut"]);
    expect(at("an enum the types call a string")).toEqual([]);
  });

  for (const [index, { place, line, adds }] of BESIDE_TYPESCRIPT.entries()) {
    test(`at ${place}: Turnlens adds ${adds.length === 0 ? "nothing" : adds.join(" | ")}, and never a label TypeScript gives there`, async () => {
      const items = await completionsOf(beside, besideUri, line);
      expect(items.map((item) => item.label)).toEqual(adds);
      expect(items.map((item) => item.label).filter((label) => typescript[index]!.includes(label))).toEqual([]);
    });
  }

  test("the required properties' item writes them with a value each, and documents every property not yet written with its description", async () => {
    const rest = await completionsOf(
      beside,
      besideUri,
      `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, | }) } }).catch(() => {});`,
    );
    expect(shown(rest)).toEqual(['findings: [{ file: "x", line: 1 }] — the required property · findings — findings: [{ file: "${1:x}", line: ${2:1} }]']);
    expect(rest[0]!.documentation).toEqual({
      kind: "markdown",
      value: '- `findings`: array of object with file, line, at least 1 items\n- `stage` (optional): "draft" | "final" — How far the review got.',
    });
    const item = await completionsOf(
      beside,
      besideUri,
      `  await testWorkflow(delivery, { args: { ticket: "PAY-2" }, agents: { reviewer: answer(REVIEW, { review: { verdict: "approve" }, findings: [{ file: "a.ts", line: 1 }, { | }] }) } }).catch(() => {});`,
    );
    expect(item[0]!.documentation).toEqual({
      kind: "markdown",
      value: "- `file`: string, at least 1 characters — The file, from the repository's root.\n- `line`: integer, ≥ 1",
    });
  });
});
