// "Fill with a valid answer": on each refused answer of examples/mistakes and on refused answers
// over schemas of examples/, the fix's value passes TypeBox's Value.Check, and the test then passes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CodeAction, Diagnostic, PublishDiagnosticsParams } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { join } from "node:path";
import { Value } from "typebox/value";
import { NOTE } from "../../examples/mistakes/workflows.ts";
import { PLAN } from "../../examples/delivery/workflow.ts";
import { VERDICT } from "../../examples/feature-delivery/workflow.ts";
import { TICKET, TRIAGE } from "../../examples/incident-tools/workflow.ts";
import { MISTAKES, mistake, ROOT, SLOW, TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await TestServer.started();
});
afterAll(() => server.dispose());

const FILL = "Fill with a valid answer";

function actionsAt(uri: string, diagnostic: Diagnostic | undefined, range = diagnostic!.range): Promise<CodeAction[]> {
  return server.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range, context: { diagnostics: diagnostic ? [diagnostic] : [] } });
}

function applied(uri: string, text: string, action: CodeAction): string {
  return TextDocument.applyEdits(TextDocument.create(uri, "typescript", 1, text), action.edit?.changes?.[uri] ?? []);
}

/** The value of the `answer(NAME, value)` on the line holding `marker` in `text`, evaluated (it is a literal). */
function answerValue(text: string, marker: string): unknown {
  const line = text.split("\n").find((candidate) => candidate.includes(marker))!;
  const start = line.indexOf(", ", line.indexOf("answer(")) + 2;
  let depth = 0;
  let end = start;
  for (; end < line.length; end++) {
    if ("{[(".includes(line[end]!)) depth++;
    if ("}])".includes(line[end]!)) depth--;
    if (depth < 0) break;
  }
  return new Function(`return (${line.slice(start, end)});`)();
}

/** Replaces the document's text and waits for that run's diagnostics. */
async function rerun(uri: string, text: string): Promise<PublishDiagnosticsParams> {
  const from = server.received.length;
  await server.change(uri, text);
  await server.advance(300);
  return (await server.runEnded(uri, from))!;
}

describe("the fill fix", () => {
  test(
    "on examples/mistakes/refused-answer: the title padded to NOTE's minLength, Value.Check accepts it, and the test then passes",
    async () => {
      const { path, text } = mistake("refused-answer");
      const { uri, diagnostics } = await server.openAndRun(path, text);
      const refused = diagnostics.diagnostics.filter((diagnostic) => diagnostic.code === "answer-refused");
      expect(refused).toHaveLength(1);
      const actions = await actionsAt(uri, refused[0]);
      expect(actions.map((action) => [action.title, action.isPreferred])).toEqual([[FILL, true]]);
      const after = applied(uri, text, actions[0]!);
      expect(after).toBe(text.replace('answer(NOTE, { title: "v2" })', 'answer(NOTE, { title: "v2x" })'));
      expect(Value.Check(NOTE, answerValue(after, "answer(NOTE"))).toBe(true);
      expect((await rerun(uri, after)).diagnostics).toEqual([]);
      await server.close(uri);
    },
    SLOW,
  );

  test(
    "every refused answer of examples/mistakes gets the fix",
    async () => {
      const refusing: string[] = [];
      for (const name of ["refused-answer"]) {
        const { path, text } = mistake(name);
        const { uri, diagnostics } = await server.openAndRun(path, text);
        for (const diagnostic of diagnostics.diagnostics.filter((found) => found.code === "answer-refused")) {
          const titles = (await actionsAt(uri, diagnostic)).map((action) => action.title);
          if (titles.includes(FILL)) refusing.push(`${name}:${diagnostic.range.start.line}`);
        }
        await server.close(uri);
      }
      expect(refusing).toEqual(["refused-answer:9"]);
      expect(MISTAKES).toContain("mistakes");
    },
    SLOW,
  );

  const FILE = join(ROOT, "examples", "fill-fixture.test.ts");
  const TEXT = `import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";
import { PLAN } from "./delivery/workflow";
import { VERDICT } from "./feature-delivery/workflow";
import { TICKET, TRIAGE } from "./incident-tools/workflow";

const ask = (schema: unknown) =>
  defineWorkflow({
    name: "ask",
    description: "Asks one turn of the schema.",
    async run(wf) {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      const { outcome } = await agent.run({ prompt: "Answer.", schema: schema as never });
      return outcome.kind;
    },
  });
const ODD = Type.Object({ code: Type.String({ pattern: "^(?=a)b$" }), n: Type.Integer() });

test("a pattern", async () => {
  await testWorkflow(ask(TICKET), { agents: { a: answer(TICKET, { id: "7" }) } });
});
test("an enum", async () => {
  await testWorkflow(ask(TRIAGE), { agents: { a: answer(TRIAGE, { severity: "medium" as never, why: "a rare crash" }) } });
});
test("a discriminated union", async () => {
  await testWorkflow(ask(VERDICT), { agents: { a: answer(VERDICT, { kind: "changes" } as never) } });
});
test("a wrong type beside a valid list", async () => {
  await testWorkflow(ask(PLAN), { agents: { a: answer(PLAN, { ready: "yes" as never, steps: ["write it", "test it"] }) } });
});
test("an empty answer", async () => {
  await testWorkflow(ask(TRIAGE), { agents: { a: answer(TRIAGE, {} as never) } });
});
test("a pattern nothing matches", async () => {
  await testWorkflow(ask(ODD), { agents: { a: answer(ODD, { code: "b" }) } });
});
`;

  test(
    "on refused answers over schemas of examples/: each fill keeps the valid parts, Value.Check accepts it, and every test then passes",
    async () => {
      const { uri, diagnostics } = await server.openAndRun(FILE, TEXT);
      const refused = diagnostics.diagnostics.filter((diagnostic) => diagnostic.code === "answer-refused");
      expect(refused.map((diagnostic) => diagnostic.range.start.line)).toEqual([21, 24, 27, 30, 33, 36]);
      let text = TEXT;
      const titles: string[] = [];
      // From the bottom up, so each fix's range is still the text's. A cast (`as never`) a refused value
      // needed goes with it: the value the fix writes has the schema's type.
      for (const diagnostic of [...refused].reverse()) {
        const fill = (await actionsAt(uri, diagnostic)).find((action) => action.title.startsWith("Fill with"));
        titles.unshift(fill?.title ?? "none");
        if (fill?.title === FILL) text = applied(uri, text, fill);
        else if (fill) expect(applied(uri, TEXT, fill).split("\n")[diagnostic.range.start.line]).toContain('answer(ODD, { code: "b", n: 0 })');
      }
      expect(titles).toEqual([FILL, FILL, FILL, FILL, FILL, "Fill with an answer (not met: /code must match the pattern ^(?=a)b$, and no string here does)"]);
      const written = (line: number) => text.split("\n")[line]!.trim();
      expect(written(21)).toBe('await testWorkflow(ask(TICKET), { agents: { a: answer(TICKET, { id: "INC-0" }) } });');
      expect(written(24)).toBe('await testWorkflow(ask(TRIAGE), { agents: { a: answer(TRIAGE, { severity: "low", why: "a rare crash" }) } });');
      expect(written(27)).toBe('await testWorkflow(ask(VERDICT), { agents: { a: answer(VERDICT, { kind: "changes", changes: [] }) } });');
      expect(written(30)).toBe('await testWorkflow(ask(PLAN), { agents: { a: answer(PLAN, { ready: false, steps: ["write it", "test it"] }) } });');
      expect(written(33)).toBe('await testWorkflow(ask(TRIAGE), { agents: { a: answer(TRIAGE, { severity: "low", why: "" }) } });');
      expect(Value.Check(TICKET, answerValue(text, "answer(TICKET"))).toBe(true);
      expect(Value.Check(TRIAGE, answerValue(text, "answer(TRIAGE, { severity"))).toBe(true);
      expect(Value.Check(VERDICT, answerValue(text, "answer(VERDICT"))).toBe(true);
      expect(Value.Check(PLAN, answerValue(text, "answer(PLAN"))).toBe(true);
      const after = await rerun(uri, text);
      expect(after.diagnostics.map((diagnostic) => `${diagnostic.range.start.line}: ${diagnostic.code}`)).toEqual(["36: answer-refused"]);
      expect(written(36)).toBe('await testWorkflow(ask(ODD), { agents: { a: answer(ODD, { code: "b" }) } });');
      await server.close(uri);
    },
    SLOW,
  );

  test(
    "an empty answer no turn reached is filled too, and the script added for an unscripted agent passes its pattern",
    async () => {
      const text = TEXT.replace("import { answer, testWorkflow }", "import { answer, noAnswer, testWorkflow }")
        .split("\n")
        .slice(0, 19)
        .join("\n")
        .concat(`
test("a second answer never reached", async () => {
  await testWorkflow(ask(TRIAGE), { agents: { a: [answer(TRIAGE, { severity: "low", why: "x" }), answer(TRIAGE, {} as never)] } });
});
test("an unscripted agent", async () => {
  await testWorkflow(ask(TICKET), { agents: { b: noAnswer.silent() } });
});
`);
      const { uri, diagnostics } = await server.openAndRun(join(ROOT, "examples", "fill-empty-fixture.test.ts"), text);
      expect(diagnostics.diagnostics.map((diagnostic) => `${diagnostic.range.start.line}: ${diagnostic.code}`)).toEqual([
        "20: entry-never-reached",
        "23: agent-unscripted",
      ]);
      const line = text.split("\n")[20]!;
      const at = { line: 20, character: line.indexOf("{} as never") + 1 };
      const fill = (await actionsAt(uri, undefined, { start: at, end: at })).find((action) => action.title === FILL);
      expect(applied(uri, text, fill!).split("\n")[20]).toBe(line.replace("answer(TRIAGE, {} as never)", 'answer(TRIAGE, { severity: "low", why: "" })'));
      const unscripted = diagnostics.diagnostics.find((diagnostic) => diagnostic.code === "agent-unscripted");
      const added = (await actionsAt(uri, unscripted)).find((action) => action.isPreferred);
      expect(added?.title).toBe('Add a script for "a": answer(TICKET, { id: "INC-0" })');
      expect(Value.Check(TICKET, { id: "INC-0" })).toBe(true);
      await server.close(uri);
    },
    SLOW,
  );

  test(
    "a multi-line answer keeps its layout, its comments and the names it holds; only what the schema refused changes",
    async () => {
      const text = TEXT.split("\n")
        .slice(0, 19)
        .join("\n")
        .concat(`
const why = "a rare crash";
test("a multi-line answer", async () => {
  await testWorkflow(ask(TRIAGE), {
    agents: {
      a: answer(TRIAGE, {
        // how bad it is
        severity: "urgent" as never,
        why,
      }),
    },
  });
});
`);
      const { uri, diagnostics } = await server.openAndRun(join(ROOT, "examples", "fill-layout-fixture.test.ts"), text);
      const refused = diagnostics.diagnostics.find((diagnostic) => diagnostic.code === "answer-refused");
      const fill = (await actionsAt(uri, refused)).find((action) => action.title === FILL);
      const after = applied(uri, text, fill!);
      expect(after).toBe(text.replace('severity: "urgent" as never,', 'severity: "low",'));
      expect((await rerun(uri, after)).diagnostics).toEqual([]);
      await server.close(uri);
    },
    SLOW,
  );
});
