// `turnlens record` on the run lines of example tests (their run.run and run.events, written to a
// run folder as the engine writes run.jsonl and in.jsonl): each written test passes under
// `turnlens test` and meets the same turns, agent by agent; `--check` names the turn where an
// edited workflow parts from the run.
import { afterAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answer, noAnswer, testWorkflow } from "agentswf/testing";
import type { TestRun } from "agentswf/testing";
import review, { DECISION, VERDICT } from "../../examples/review/workflow";
import reminder from "../../examples/reminder/workflow";
import summarize, { SUMMARY } from "../../examples/summarize/summarize";
import flow, { BRANCH, DOC, QA } from "../../examples/flow/workflow";
import triage from "../../examples/triage/workflow";
import { inProject } from "./cliTable.ts";
import { type CliResult, ROOT, SLOW, turnlens, turnlensCommand } from "./harness.ts";

const dir = mkdtempSync(join(tmpdir(), "turnlens-record-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a run's lines as its run folder: run.jsonl and in.jsonl, one JSON object a line. */
function keep(name: string, run: TestRun<unknown>): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  const jsonl = (lines: readonly unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  writeFileSync(join(folder, "run.jsonl"), jsonl(run.run));
  writeFileSync(join(folder, "in.jsonl"), jsonl(run.events));
  return folder;
}

interface TracedTurn {
  agent: string;
  n: number;
  nudge: boolean;
  prompt: string;
  outcome: string;
}

const sameFields = ({ agent, n, nudge, prompt, outcome }: TracedTurn) => ({ agent, n, nudge, prompt, outcome });

/** Records `folder`, runs the written test with the json reporter, and returns the turns it met. */
async function recordAndRun(folder: string, workflow: string): Promise<{ written: string; turns: TracedTurn[]; recorded: string; passed: number }> {
  const written = `${folder}.test.ts`;
  const recorded = await turnlensCommand(["record", folder, "--workflow", workflow, "--out", written]);
  expect(recorded.stderr).toBe("");
  expect(recorded.code).toBe(0);
  // Formatted as the examples are: Biome, with this repository's settings, leaves it as it is.
  const source = readFileSync(written, "utf8");
  const biome = spawnSync(process.execPath, [join(ROOT, "node_modules/@biomejs/biome/bin/biome"), "format", "--stdin-file-path=recorded.test.ts"], {
    cwd: ROOT,
    input: source,
    encoding: "utf8",
  });
  expect(biome.stdout).toBe(source);
  const ran = await turnlens([written, "--reporter", "json"]);
  const report = JSON.parse(ran.stdout) as { passed: number; files: Array<{ tests: Array<{ runs: Array<{ turns: TracedTurn[] }> }> }> };
  return { written, turns: report.files[0]!.tests[0]!.runs[0]!.turns, recorded: recorded.stdout, passed: report.passed };
}

/** The original's turns and the written test's, agent by agent. */
function expectSameTurns(original: TestRun<unknown>, turns: TracedTurn[]): void {
  const agents = [...new Set(original.turns.map((turn) => turn.agent))];
  expect(agents.length).toBeGreaterThan(0);
  for (const agent of agents) {
    expect(turns.filter((turn) => turn.agent === agent).map(sameFields)).toEqual(original.turnsOf(agent).map((turn) => sameFields(turn as TracedTurn)));
  }
  expect(turns.length).toBe(original.turns.length);
}

/** `turnlens record FOLDER --workflow WORKFLOW --check`. */
function checkAgainst(folder: string, workflow: string): Promise<CliResult> {
  return turnlensCommand(["record", folder, "--workflow", workflow, "--check"]);
}

/** The check failed (exit 1) saying only that `folder` does not replay against `workflow`, for `reason`. */
function expectDoesNotReplay(checked: CliResult, folder: string, workflow: string, reason: string): void {
  expect(checked.stderr).toBe(`✗ ${folder} does not replay against ${workflow}:\n  ${reason}\n`);
  expect(checked.code).toBe(1);
}

describe("turnlens record on the run lines of example tests", () => {
  test(
    "a parallel review with a timed-out verifier and a text turn: the written test passes with the same turns",
    async () => {
      const original = await testWorkflow(review, {
        args: { diff: "main..feature" },
        id: "review-7",
        agents: {
          "verifier-*": answer(VERDICT, { ok: true, findings: [] }),
          "verifier-2": noAnswer.timedOut(),
          lead: [answer(DECISION, { approve: false, summary: "a verdict is missing" }), answer("Not yet.")],
        },
      });
      const { written, turns, recorded, passed } = await recordAndRun(keep("review-7", original), "examples/review/workflow.ts");
      expect(recorded).toBe(`✓ wrote ${written} (5 turns, 0 events)\n`);
      expect(passed).toBe(1);
      expectSameTurns(original, turns);
      const source = readFileSync(written, "utf8");
      expect(source).toContain(`import review, { DECISION, VERDICT } from "../`);
      expect(source).toContain(`      "verifier-2": noAnswer.timedOut(),\n`);
      expect(source).toContain(`      lead: [answer(DECISION, { approve: false, summary: "a verdict is missing" }), answer("Not yet.")],\n`);
      expect(source).toContain(`  expect(run.value).toEqual({ approve: false, summary: "a verdict is missing", comment: "Not yet." });\n`);
    },
    SLOW,
  );

  test(
    "a silent reader nudged once: the written test gives noAnswer.silent() and meets the nudge too",
    async () => {
      const original = await testWorkflow(summarize, { args: { file: "NOTES.md" }, agents: { reader: noAnswer.silent() } });
      const { written, turns, passed } = await recordAndRun(keep("silent", original), "examples/summarize/summarize.ts");
      expect(passed).toBe(1);
      expectSameTurns(original, turns);
      expect(turns.map((turn) => turn.nudge)).toEqual([false, true]);
      const source = readFileSync(written, "utf8");
      expect(source).toContain("agents: { reader: noAnswer.silent() },");
      expect(source).not.toContain("SUMMARY");
    },
    SLOW,
  );

  test(
    "a reminder with an event during the second turn and timers on the virtual clock: the event is sent during that turn again",
    async () => {
      const original = await testWorkflow(reminder, {
        agents: { author: answer("done") },
        events: [{ during: "author#2", name: "reviewed", data: { verdict: "approved" } }],
      });
      const { written, turns, passed } = await recordAndRun(keep("reminder", original), "examples/reminder/workflow.ts");
      expect(passed).toBe(1);
      expectSameTurns(original, turns);
      expect(readFileSync(written, "utf8")).toContain(`    events: [{ during: "author#2", name: "reviewed", data: { verdict: "approved" } }],\n`);
    },
    SLOW,
  );

  test(
    "a flow through three stages with a compaction: the written test passes with the same turns and stages",
    async () => {
      const original = await testWorkflow(flow, {
        agents: {
          reviewer: answer(DOC, { path: "docs/a.md" }),
          implementer: [answer("Implemented."), answer(BRANCH, { branch: "feat/a" })],
          worker: answer(QA, { preview: "ok" }),
        },
      });
      const { written, turns, passed } = await recordAndRun(keep("flow", original), "examples/flow/workflow.ts");
      expect(passed).toBe(1);
      expectSameTurns(original, turns);
      expect(readFileSync(written, "utf8")).toContain(`  expect(run.value).toEqual({ doc: "docs/a.md", branch: "feat/a", preview: "ok" });\n`);
    },
    SLOW,
  );
  test(
    "a triage whose decisions a glob answered and one failed: the written test scripts each key as its provider answered",
    async () => {
      const original = await testWorkflow(triage, {
        args: { tickets: ["Refund charged twice", "Dark mode toggle misaligned"] },
        decisions: {
          "triage-*": { team: { payments: 0.9, accounts: 0.05, frontend: 0.05 }, bug: 0.8, urgency: [0.1, 0.2, 0.7] },
          "triage-2": new Error("provider unavailable"),
        },
      });
      const { written, passed, recorded } = await recordAndRun(keep("triage", original), "examples/triage/workflow.ts");
      expect(recorded).toBe(`✓ wrote ${written} (0 turns, 0 events, 2 decisions)\n`);
      expect(passed).toBe(1);
      const source = readFileSync(written, "utf8");
      expect(source).toContain(
        `    decisions: {\n      "triage-1": { team: { payments: 0.9, accounts: 0.05, frontend: 0.05 }, bug: 0.8, urgency: [0.1, 0.2, 0.7] },\n      "triage-2": new Error("provider unavailable"),\n    },\n`,
      );
      expect(source).toContain(`    { title: "Dark mode toggle misaligned", team: "desk", why: 'decision "triage-2" failed: provider unavailable' },\n`);
      expect(source).not.toContain("agents:");
    },
    SLOW,
  );
  test(
    "a silent turn answered at its nudge, a schema the file does not export, a blocked turn, a starting event and an after event with their ids",
    async () => {
      const workflow = join(dir, "sink.ts");
      writeFileSync(
        workflow,
        [
          'import { defineWorkflow, Type } from "agentswf/workflow";',
          "const COUNT = Type.Object({ n: Type.Number() });",
          "export const NOTE = Type.Object({ text: Type.String() });",
          "export default defineWorkflow({",
          '  name: "sink",',
          '  description: "Three turns, a starting event and one more.",',
          "  events: { go: Type.Object({ by: Type.String() }), more: Type.Object({ n: Type.Number() }) },",
          '  starts: ["go"],',
          "  async run(wf) {",
          "    wf.keepAlive();",
          '    const writer = await wf.agents.open({ key: "writer", runtime: "claude" });',
          '    const note = await writer.run({ prompt: "Note it.", schema: NOTE });',
          '    const count = await writer.run({ prompt: "Count it.", schema: COUNT });',
          '    const asked = await writer.run({ prompt: "Ask first." });',
          '    const more = await wf.events.wait("more");',
          "    return { note: note.outcome, count: count.outcome.kind, asked: asked.outcome.kind, more: more.kind, by: wf.event?.data };",
          "  },",
          "});",
          "",
        ].join("\n"),
      );
      const folder = join(dir, "sink-run");
      const maker = join(dir, "sink-make.test.ts");
      writeFileSync(
        maker,
        [
          'import { test } from "bun:test";',
          'import { mkdirSync, writeFileSync } from "node:fs";',
          'import { answer, noAnswer, testWorkflow } from "agentswf/testing";',
          'import { Type } from "agentswf/workflow";',
          'import sink, { NOTE } from "./sink";',
          'test("makes the run folder", async () => {',
          "  const run = await testWorkflow(sink, {",
          '    event: { name: "go", data: { by: "ann" }, eventId: "go-1" },',
          "    agents: {",
          '      writer: [answer(NOTE, (turn) => (turn.nudge ? { text: "late" } : noAnswer.silent())), answer(Type.Object({ n: Type.Number() }), { n: 3 }), noAnswer.blocked("needs a yes")],',
          "    },",
          '    events: [{ after: "writer#3", name: "more", data: { n: 2 }, eventId: "m-1" }],',
          "  });",
          `  mkdirSync(${JSON.stringify(folder)}, { recursive: true });`,
          '  const jsonl = (lines: readonly unknown[]) => lines.map((line) => JSON.stringify(line) + "\\n").join("");',
          `  writeFileSync(${JSON.stringify(join(folder, "run.jsonl"))}, jsonl(run.run));`,
          `  writeFileSync(${JSON.stringify(join(folder, "in.jsonl"))}, jsonl(run.events));`,
          "  writeFileSync(" +
            JSON.stringify(join(dir, "sink-turns.json")) +
            ", JSON.stringify(run.turns.map(({ agent, n, nudge, prompt, outcome }) => ({ agent, n, nudge, prompt, outcome }))));",
          "});",
          "",
        ].join("\n"),
      );
      expect((await turnlens([maker])).code).toBe(0);
      const written = join(dir, "sink-run.test.ts");
      const recorded = await turnlensCommand(["record", folder, "--workflow", workflow]);
      expect(recorded.stdout).toBe(`✓ wrote ${written} (4 turns, 1 event)\n`);
      const source = readFileSync(written, "utf8");
      expect(source).toContain(
        'import { Type } from "agentswf/workflow";\nimport sink, { NOTE } from "./sink";\n\nconst WRITER_ANSWER = Type.Unsafe({ properties: { n: { type: "number" } }, required: ["n"], type: "object" });\n',
      );
      expect(source).toContain(
        '    agents: { writer: [answer(NOTE, (turn) => (turn.nudge ? { text: "late" } : noAnswer.silent())), answer(WRITER_ANSWER, { n: 3 }), noAnswer.blocked("needs a yes")] },\n',
      );
      expect(source).toContain('    event: { name: "go", data: { by: "ann" }, eventId: "go-1" },\n');
      expect(source).toContain('    events: [{ after: "writer#3", name: "more", data: { n: 2 }, eventId: "m-1" }],\n');
      const ran = await turnlens([written, "--reporter", "json"]);
      const report = JSON.parse(ran.stdout) as { passed: number; files: Array<{ tests: Array<{ runs: Array<{ turns: TracedTurn[] }> }> }> };
      expect(report.passed).toBe(1);
      expect(report.files[0]!.tests[0]!.runs[0]!.turns.map(sameFields)).toEqual(JSON.parse(readFileSync(join(dir, "sink-turns.json"), "utf8")));
    },
    SLOW,
  );
  test(
    "answers too long for a line break over lines as Biome breaks them, and the written test still passes",
    async () => {
      const long =
        "The change reads well overall, but the migration locks the payments table for the whole backfill, which at our volume is minutes of failed checkouts.";
      const original = await testWorkflow(review, {
        args: { diff: "main..feature" },
        agents: {
          "verifier-*": answer(VERDICT, { ok: false, findings: [long, "a second finding, long enough that the list of findings cannot share the line", "x"] }),
          lead: [answer(DECISION, { approve: false, summary: long }), answer(`${long} ${long}`)],
        },
      });
      const { written, turns, passed } = await recordAndRun(keep("long", original), "examples/review/workflow.ts");
      expect(passed).toBe(1);
      expectSameTurns(original, turns);
      expect(readFileSync(written, "utf8")).toContain(
        `        answer(DECISION, {\n          approve: false,\n          summary:\n            ${JSON.stringify(long)},\n        }),\n`,
      );
    },
    SLOW,
  );
});

describe("turnlens record --check", () => {
  const summarizeSource = readFileSync(join(ROOT, "examples/summarize/summarize.ts"), "utf8");
  const answered = async () => keep("answered", await testWorkflow(summarize, { args: { file: "README.md" }, agents: { reader: answer(SUMMARY, { summary: "Two." }) } }));

  test(
    "on the workflow it ran, the run replays: exit 0",
    async () => {
      const folder = await answered();
      const checked = await checkAgainst(folder, "examples/summarize/summarize.ts");
      expect(checked.stdout).toBe(`✓ ${folder} replays against examples/summarize/summarize.ts: 1 turn, 0 events, the same\n`);
      expect(checked.code).toBe(0);
    },
    SLOW,
  );

  test(
    "on a workflow edited to ask one more turn, it fails naming the new turn",
    async () => {
      const folder = await answered();
      const edited = join(dir, "asks-more.ts");
      const asked = '    return outcome.kind === "answered" ? outcome.value';
      expect(summarizeSource).toContain(asked);
      writeFileSync(edited, summarizeSource.replace(asked, `    await reader.run({ prompt: "Now say it in one word." });\n${asked}`));
      expectDoesNotReplay(await checkAgainst(folder, edited), folder, edited, `agent "reader" turn 2 is new: asked "Now say it in one word."`);
    },
    SLOW,
  );

  test(
    "on a workflow whose prompt changed, it fails naming the turn and both prompts; record writes nothing",
    async () => {
      const folder = await answered();
      const edited = join(dir, "reworded.ts");
      writeFileSync(edited, summarizeSource.replace("summarise it in two sentences", "summarise it in one sentence"));
      expectDoesNotReplay(
        await checkAgainst(folder, edited),
        folder,
        edited,
        `agent "reader" turn 1: the prompt changed: was "Read README.md and summarise it in two sentences.", now "Read README.md and summarise it in one sentence."`,
      );
      const written = await turnlensCommand(["record", folder, "--workflow", edited, "--out", join(dir, "never.test.ts")]);
      expect(written.stderr).toContain("does not replay against");
      expect(written.stderr).toContain("; nothing written:");
      expect(written.code).toBe(1);
    },
    SLOW,
  );

  test(
    "a folder with no run.jsonl, a missing workflow and a missing --workflow are each refused by name",
    async () => {
      const empty = join(dir, "empty");
      mkdirSync(empty, { recursive: true });
      const noLines = await turnlensCommand(["record", empty, "--workflow", "examples/summarize/summarize.ts", "--check"]);
      expect(noLines.stderr).toBe(`✗ ${empty} has no run.jsonl: a run folder holds the run.jsonl and in.jsonl a run wrote\n`);
      expect(noLines.code).toBe(1);
      const noWorkflow = await turnlensCommand(["record", empty, "--workflow", "nowhere.ts"]);
      expect(noWorkflow.stderr).toBe("✗ no such workflow file: nowhere.ts\n");
      const usage = await turnlensCommand(["record", empty]);
      expect(usage.stderr.split("\n")[0]).toBe("record needs --workflow <file>: the workflow file the run ran");
      expect(usage.code).toBe(2);
    },
    SLOW,
  );

  /** A workflow of two turns, a schema turn and a text turn, written to the test's folder. */
  const twoTurns = (name: string, edit: (source: string) => string = (source) => source): string => {
    const file = join(dir, `${name}.ts`);
    writeFileSync(
      file,
      edit(
        [
          'import { defineWorkflow, Type } from "agentswf/workflow";',
          "export const PLAN = Type.Object({ steps: Type.Array(Type.String()) });",
          "export default defineWorkflow({",
          '  name: "two-turns",',
          '  description: "Plans, then reports.",',
          "  async run(wf) {",
          '    const planner = await wf.agents.open({ key: "planner", runtime: "claude" });',
          '    const plan = await planner.run({ prompt: "Plan it.", schema: PLAN });',
          '    const report = await planner.run({ prompt: "Report." });',
          "    return { plan: plan.outcome.kind, report: report.outcome.kind };",
          "  },",
          "});",
          "",
        ].join("\n"),
      ),
    );
    return file;
  };

  /** The run of the two-turn workflow, made by a test file of its own under `turnlens test` (it imports the workflow's source). */
  const twoTurnRun = async (name: string): Promise<string> => {
    twoTurns(`${name}-original`);
    const folder = join(dir, name);
    const maker = join(dir, `${name}-make.test.ts`);
    writeFileSync(
      maker,
      [
        'import { test } from "bun:test";',
        'import { mkdirSync, writeFileSync } from "node:fs";',
        'import { answer, testWorkflow } from "agentswf/testing";',
        `import twoTurns, { PLAN } from "./${name}-original";`,
        'test("makes the run folder", async () => {',
        '  const run = await testWorkflow(twoTurns, { agents: { planner: [answer(PLAN, { steps: ["a"] }), answer("done")] } });',
        `  mkdirSync(${JSON.stringify(folder)}, { recursive: true });`,
        `  writeFileSync(${JSON.stringify(join(folder, "run.jsonl"))}, run.run.map((line) => JSON.stringify(line) + "\\n").join(""));`,
        "});",
        "",
      ].join("\n"),
    );
    expect((await turnlens([maker])).code).toBe(0);
    return folder;
  };

  test(
    "on a workflow that asks one turn fewer, it fails naming the turn no longer asked",
    async () => {
      const folder = await twoTurnRun("fewer");
      const edited = twoTurns("fewer-edited", (source) => source.replace('    const report = await planner.run({ prompt: "Report." });\n', "    const report = plan;\n"));
      expectDoesNotReplay(await checkAgainst(folder, edited), folder, edited, `agent "planner" turn 2 is no longer asked (it was asked "Report.")`);
    },
    SLOW,
  );

  test(
    "on a workflow whose turn asks for another schema, it fails naming the turn",
    async () => {
      const folder = await twoTurnRun("schema");
      const edited = twoTurns("schema-edited", (source) => source.replace("Type.Array(Type.String())", "Type.Array(Type.Number())"));
      expectDoesNotReplay(
        await checkAgainst(folder, edited),
        folder,
        edited,
        `agent "planner" turn 1: the schema changed: the recorded answer's schema is not the one the turn asks for now`,
      );
    },
    SLOW,
  );
});

describe("turnlens record copies a run folder's name into code only escaped", () => {
  test(
    "a folder name holding U+2028 or a line feed stays inside the header comment's one line, and the written test passes",
    async () => {
      // The record-folder-name case: make.test.ts writes two run folders whose names hold U+2028 and LF then code.
      await inProject({ copy: "recordFolderName" }, async (dir) => {
        expect((await turnlens(["make.test.ts"], dir)).code).toBe(0);
        const folders = readdirSync(join(dir, "runs")).sort();
        expect(folders).toEqual(["a\u2028require('fs').writeFileSync('PWNED_LS', 'x');", "b\nrequire('fs').writeFileSync('PWNED_NL', 'x');"]);
        for (const [index, folder] of folders.entries()) {
          const out = join(dir, `out-${index}.test.ts`);
          const recorded = await turnlensCommand(["record", join("runs", folder), "--workflow", "summarize.ts", "--out", out], dir);
          expect(recorded.code).toBe(0);
          const source = readFileSync(out, "utf8");
          const shown = index === 0 ? "a\\u2028" : "b\\u000a";
          expect(source.split("\n")[0]).toBe(
            `// Written by \`turnlens record\` from runs/${shown}require('fs').writeFileSync('PWNED_${index === 0 ? "LS" : "NL"}', 'x');: the run's answers and events, replayed.`,
          );
          // No line terminator is left raw anywhere in the file: the answer's U+2028 is escaped in its string too.
          expect(source).not.toMatch(/[\u2028\u2029\r]/);
          expect(source).toContain('{ summary: "*/ `${globalThis.x}` \\u2028 \\" \' </script> \\\\" }');
          const ran = await turnlens([out], dir);
          expect(ran.lastLine).toBe("1 passed, 0 failed");
        }
        expect(existsSync(join(dir, "PWNED_LS")) || existsSync(join(dir, "PWNED_NL"))).toBe(false);
      });
    },
    SLOW,
  );
});

describe("turnlens record on a workflow that connects a participant", () => {
  /** An incident workflow: a coordinator (a participant) connected, a responder that may ask it; `edit` changes its source. */
  const incident = (name: string, edit: (source: string) => string = (source) => source): string => {
    const file = join(dir, `${name}.ts`);
    const source = [
      'import { defineWorkflow } from "agentswf/workflow";',
      "export default defineWorkflow({",
      '  name: "incident",',
      '  description: "Handles an incident, asking the coordinator what it cannot decide.",',
      "  async run(wf) {",
      '    await wf.participants.connect({ key: "coordinator" });',
      '    const responder = await wf.agents.open({ key: "responder", runtime: "claude" });',
      '    await wf.messages.allow({ between: ["responder", "coordinator"], purpose: "questions about the incident" });',
      '    const { outcome } = await responder.run({ prompt: "Handle the checkout incident." });',
      '    return outcome.kind === "answered" ? outcome.value : outcome.kind;',
      "  },",
      "});",
      "",
    ].join("\n");
    writeFileSync(file, edit(source));
    return file;
  };

  /** The run folder of `responder`'s script against the incident workflow, made under `turnlens test` (run.jsonl and in.jsonl). */
  const incidentRun = async (name: string, responder: string, coordinator: string): Promise<string> => {
    incident(`${name}-original`);
    const folder = join(dir, name);
    const maker = join(dir, `${name}-make.test.ts`);
    const lines = (what: string, file: string) =>
      `  writeFileSync(${JSON.stringify(join(folder, file))}, run.${what}.map((line) => JSON.stringify(line) + "\\n").join(""));`;
    writeFileSync(
      maker,
      [
        'import { test } from "bun:test";',
        'import { mkdirSync, writeFileSync } from "node:fs";',
        'import { answer, testWorkflow } from "agentswf/testing";',
        `import incident from "./${name}-original";`,
        'test("makes the run folder", async () => {',
        `  const run = await testWorkflow(incident, { agents: { responder: ${responder} }, participants: { coordinator: ${coordinator} } });`,
        `  mkdirSync(${JSON.stringify(folder)}, { recursive: true });`,
        lines("run", "run.jsonl"),
        lines("events", "in.jsonl"),
        "});",
        "",
      ].join("\n"),
    );
    expect((await turnlens([maker])).code).toBe(0);
    return folder;
  };

  test(
    "a run whose responder asked the coordinator and got its reply: the written test scripts the coordinator silent and passes with the same turn and value",
    async () => {
      const folder = await incidentRun(
        "asked",
        'answer(async (turn) => { const asked = await turn.send("coordinator", "One incident or two?", { awaitReply: true }); return asked.kind === "replied" ? asked.text : asked.kind; })',
        '(event) => (event.kind === "message" && event.asks ? event.reply("Keep two, and link them.") : undefined)',
      );
      // The reply is in the run's in.jsonl, answering the responder's message.
      expect(readFileSync(join(folder, "in.jsonl"), "utf8")).toContain('"name":"coordinator:reply","data":{"text":"Keep two, and link them.","to":"m1"}');
      const { written, turns, recorded, passed } = await recordAndRun(folder, incident("asked-original"));
      expect(recorded).toBe(`✓ wrote ${written} (1 turn, 0 events)\n`);
      expect(passed).toBe(1);
      expect(turns.map(sameFields)).toEqual([{ agent: "responder", n: 1, nudge: false, prompt: "Handle the checkout incident.", outcome: "answered" }]);
      const source = readFileSync(written, "utf8");
      expect(source).toContain('    agents: { responder: answer("Keep two, and link them.") },\n    participants: { coordinator: () => undefined },\n');
      expect(source).toContain('  expect(run.value).toEqual("Keep two, and link them.");\n');
    },
    SLOW,
  );

  test(
    "a run that only opened the coordinator's route replays against the workflow it ran: exit 0",
    async () => {
      const folder = await incidentRun("connected", 'answer("Rolled back.")', "() => undefined");
      const workflow = incident("connected-original");
      const checked = await checkAgainst(folder, workflow);
      expect(checked.stdout).toBe(`✓ ${folder} replays against ${workflow}: 1 turn, 0 events, the same\n`);
      expect(checked.code).toBe(0);
    },
    SLOW,
  );

  test(
    "a workflow that now throws before the responder's turn: the one line is the throw, not the turn it never reached",
    async () => {
      const folder = await incidentRun("throws", 'answer("Rolled back.")', "() => undefined");
      const edited = incident("throws-edited", (source) =>
        source.replace("    const responder = await", '    if (wf.args === undefined) throw new Error("no pager is configured");\n    const responder = await'),
      );
      const checked = await checkAgainst(folder, edited);
      expect(checked.stderr.split("\n").slice(1)).toEqual([expect.stringMatching(/^ {2}the replay was refused: .*no pager is configured/), ""]);
      expect(checked.code).toBe(1);
    },
    SLOW,
  );
});
