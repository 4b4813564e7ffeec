import { describe, expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";
import { problemsOf } from "turnlens/trace";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { askOnce, flow, mistake } from "./workflows";

/** The user's private temporary folder, which holds a subfolder per process, and in it the run folders. */
const tempRoot = join(tmpdir(), `turnlens-${process.getuid?.()}`);

const hello = askOnce({ prompt: "hello" });
const scripted = { agents: { a: answer("hi") } };

describe("an option of the wrong kind", () => {
  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ["stall that is no duration", { stall: "2 secs" }, 'testWorkflow\'s "stall" must be a duration such as "5s", not "2 secs"'],
    ["timeout that is no duration", { timeout: "soon" }, 'testWorkflow\'s "timeout" must be a duration such as "5s", not "soon"'],
    ["timeout in bare milliseconds", { timeout: 5000 }, 'testWorkflow\'s "timeout" must be a duration such as "5s", not 5000'],
    ["negative maxTurns", { maxTurns: -1 }, 'testWorkflow\'s "maxTurns" must be a whole number of turns, not -1'],
    ["fractional maxTurns", { maxTurns: 1.5 }, 'testWorkflow\'s "maxTurns" must be a whole number of turns, not 1.5'],
    ["maxTurns as text", { maxTurns: "3" }, 'testWorkflow\'s "maxTurns" must be a whole number of turns, not "3"'],
    ["id that is a number", { id: 5 }, 'testWorkflow\'s "id" must be a run id such as "test", not 5'],
    ["empty id", { id: "" }, 'testWorkflow\'s "id" must be a run id such as "test", not ""'],
    ["cwd that is no path", { cwd: 5 }, "testWorkflow's \"cwd\" must be a directory's path, not 5"],
    ["runtimes that aren't a map", { runtimes: "claude" }, 'testWorkflow\'s "runtimes" must map an alias to { harness, model }, not "claude"'],
    ["a runtime without a model", { runtimes: { fast: { harness: "claude" } } }, 'runtimes["fast"] must be { harness, model, effort? }, not {"harness":"claude"}'],
    ["a runtime that is a name", { runtimes: { fast: "claude" } }, 'runtimes["fast"] must be { harness, model, effort? }, not "claude"'],
    ["files that aren't a map", { files: "README.md" }, 'testWorkflow\'s "files" must map paths to contents or folders, not "README.md"'],
    ["a file whose contents are a number", { files: { "a.txt": 5 } }, 'files["a.txt"] must be a file\'s contents or a folder, not 5'],
    ["a file under a folder with bad contents", { files: { docs: { "a.md": null } } }, 'files["docs/a.md"] must be a file\'s contents or a folder, not null'],
  ];
  for (const [what, options, message] of refusals) {
    test(`is refused naming it: ${what}`, async () => {
      const error = await mistake(testWorkflow(hello, { ...scripted, ...options } as never));
      expect(error.message).toBe(message);
      expect(problemsOf(error)?.[0]?.code).toBe("option-invalid");
    });
  }

  test("every such option is refused at once, one line each", async () => {
    const error = await mistake(testWorkflow(hello, { ...scripted, stall: "later", maxTurns: -2, id: 7 } as never));
    expect(error.message).toBe(
      [
        'testWorkflow\'s "stall" must be a duration such as "5s", not "later"',
        'testWorkflow\'s "maxTurns" must be a whole number of turns, not -2',
        'testWorkflow\'s "id" must be a run id such as "test", not 7',
      ].join("\n"),
    );
    expect(problemsOf(error)?.map((problem) => problem.option)).toEqual(["stall", "maxTurns", "id"]);
  });
});

describe("files", () => {
  const outside: Array<[string, Record<string, unknown>]> = [
    ["../secrets.txt", { "../secrets.txt": "x" }],
    ["/etc/passwd", { "/etc/passwd": "x" }],
    ["notes/../../up.txt", { "notes/../../up.txt": "x" }],
    ["docs/../../up.txt", { docs: { "../../up.txt": "x" } }],
  ];
  for (const [path, files] of outside) {
    test(`a path outside the run's directory is refused: ${path}`, async () => {
      const error = await mistake(testWorkflow(hello, { ...scripted, files } as never));
      expect(error.message).toBe(`files path "${path}" is outside the run's directory`);
      expect(problemsOf(error)?.[0]).toMatchObject({ code: "option-invalid", option: "files" });
    });
  }

  test("files and cwd together are refused", async () => {
    const error = await mistake(testWorkflow(hello, { ...scripted, files: { "a.md": "a" }, cwd: tmpdir() }));
    expect(error.message).toBe('testWorkflow takes "files" or "cwd", not both: files are laid out in a directory the test makes');
  });

  test("are laid out under the run's directory, where the workflow finds them from wf.cwd", async () => {
    const reads = flow(async (wf) => {
      const at = (path: string) => readFile(join(wf.cwd, path), "utf8");
      return [await at("README.md"), await at("docs/guide.md"), await at("docs/deep/notes.md"), await at("src/main.ts")];
    });
    const run = await testWorkflow(reads, {
      files: {
        "README.md": "# readme\n",
        docs: { "guide.md": "guide", deep: { "notes.md": "notes" } },
        "src/main.ts": "export {};\n",
      },
    });
    expect(run.value).toEqual(["# readme\n", "guide", "notes", "export {};\n"]);
  });

  test("are there for an agent's script too, in turn.cwd", async () => {
    const run = await testWorkflow(hello, {
      files: { "plan.md": "the plan" },
      agents: { a: answer((turn) => readFileSync(join(turn.cwd, "plan.md"), "utf8")) },
    });
    expect(run.value).toEqual({ kind: "answered", value: "the plan" });
  });

  test("are read once: a getter or a Proxy that answers a path outside after the check writes nothing there", async () => {
    const outsideName = `turnlens-files-escape-${process.pid}.txt`;
    let reads = 0;
    // A folder whose getter answers a safe tree to the check and an escaping one to any later read.
    const files = {
      get docs(): Record<string, string> {
        reads++;
        return reads === 1 ? { "guide.md": "checked" } : { [`../../${outsideName}`]: "escaped" };
      },
    };
    // A tree whose names change after the first listing.
    let listings = 0;
    const shifting = new Proxy({ "plan.md": "checked plan" } as Record<string, string>, {
      ownKeys: () => (++listings === 1 ? ["plan.md"] : [`../${outsideName}`]),
      getOwnPropertyDescriptor: () => ({ value: "escaped", enumerable: true, configurable: true }),
      get: (_target, name) => (listings === 1 && name === "plan.md" ? "checked plan" : "escaped"),
    });
    const readsGuide = flow(async (wf) => [wf.cwd, await readFile(join(wf.cwd, "docs", "guide.md"), "utf8"), readdirSync(wf.cwd).sort()]);
    const run = await testWorkflow(readsGuide, { files });
    const [cwd, ...seen] = run.value;
    expect(seen).toEqual(["checked", ["docs"]]);
    expect(reads).toBe(1);
    expect(existsSync(join(cwd as string, "docs", "..", "..", outsideName))).toBe(false);
    const readsPlan = flow(async (wf) => [wf.cwd, await readFile(join(wf.cwd, "plan.md"), "utf8"), readdirSync(wf.cwd).sort()]);
    const listed = await testWorkflow(readsPlan, { files: shifting });
    const [listedCwd, ...listedSeen] = listed.value;
    expect(listedSeen).toEqual(["checked plan", ["plan.md"]]);
    expect(listings).toBe(1);
    expect(existsSync(join(listedCwd as string, "..", outsideName))).toBe(false);
  });
});

describe("cwd", () => {
  const where = flow(async (wf) => {
    const agent = await wf.agents.open({ key: "a", runtime: "claude" });
    await agent.run({ prompt: "write a file" });
    return wf.cwd;
  });

  test("is a temporary directory by default, removed after the run", async () => {
    const run = await testWorkflow(where, {
      agents: { a: answer((turn) => (writeFileSync(join(turn.cwd, "out.txt"), "x"), "wrote")) },
    });
    // This process's subfolder of the user's private temporary folder (core/tempFolder/tempFiles.ts).
    expect(run.value).toMatch(new RegExp(`^${join(tempRoot, `${process.pid}\\.[0-9.a-f]+`, "run-\\d+")}$`));
    expect(run.turnsOf("a")[0]?.cwd).toBe(run.value);
    expect(existsSync(run.value)).toBe(false);
  });

  test("the temporary directory is removed when the test fails too", async () => {
    let cwd = "";
    const failing = flow(async (wf) => {
      cwd = wf.cwd;
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      return agent.run({ prompt: "nobody scripted me" });
    });
    await mistake(testWorkflow(failing, {}));
    expect(cwd).not.toBe("");
    expect(existsSync(cwd)).toBe(false);
  });

  // The temporary directory is made the first time its path reaches code that may touch files.
  const ownFolders = () =>
    readdirSync(tempRoot)
      .filter((name) => name.startsWith(`${process.pid}.`))
      .flatMap((folder) => readdirSync(join(tempRoot, folder)).filter((name) => name.startsWith("run-")));

  test("the temporary directory is not made for a run whose code never reads its path", async () => {
    const run = await testWorkflow(askOnce({ prompt: "count" }), { agents: { a: answer(() => String(ownFolders().length)) } });
    expect(run.value).toEqual({ kind: "answered", value: "0" });
  });

  test("the temporary directory exists once wf.cwd is read", async () => {
    const run = await testWorkflow(flow(async (wf) => [ownFolders().length, existsSync(wf.cwd), ownFolders().length]));
    expect(run.value).toEqual([0, true, 1]);
  });

  test("the temporary directory exists once a script reads turn.cwd, in a turn or a compaction", async () => {
    const compacts = flow(async (wf) => {
      const agent = await wf.agents.open({ key: "a", runtime: "claude" });
      await agent.run({ prompt: "Plan." });
      return (await agent.compact({ prompt: "focus" })).kind;
    });
    const exists = answer((turn) => `${ownFolders().length} ${existsSync(turn.cwd)} ${ownFolders().length}`);
    const turn = await testWorkflow(askOnce({ prompt: "look" }), { agents: { a: exists } });
    expect(turn.value).toEqual({ kind: "answered", value: "0 true 1" });
    let seen = "";
    const compaction = answer((turn) => ((seen = `${ownFolders().length} ${existsSync(turn.cwd)}`), "summary"));
    expect((await testWorkflow(compacts, { agents: { a: answer("planned") }, compactions: { a: compaction } })).value).toBe("answered");
    expect(seen).toBe("0 true");
  });

  test("the temporary directory exists for a tool's cwd and for prepare's", async () => {
    const tooled = defineWorkflow({
      name: "tooled",
      description: "An agent calls a tool that looks at its cwd.",
      prepare: ({ cwd }) => ({ existed: existsSync(cwd) }),
      tools: { look: { description: "Looks at its cwd.", input: Type.Object({}), run: async (_input: object, context) => existsSync(context.cwd) } },
      async run(wf, args) {
        const agent = await wf.agents.open({ key: "a", runtime: "claude", tools: ["look"] });
        const { outcome } = await agent.run({ prompt: "Look." });
        return { prepared: args.existed, tool: outcome.kind === "answered" ? outcome.value : outcome.kind };
      },
    });
    // @ts-expect-error tsc wants args where they can't be null; left out, prepare makes them
    const run = await testWorkflow(tooled, { agents: { a: answer(async (turn) => JSON.stringify(await turn.tool("look"))) } });
    expect(run.value).toEqual({ prepared: true, tool: '{"kind":"result","output":true}' });
    const given = await testWorkflow(tooled, {
      args: { existed: false },
      agents: { a: answer(async (turn) => `${ownFolders().length} ${JSON.stringify(await turn.tool("look"))}`) },
    });
    expect(given.value).toEqual({ prepared: false, tool: '0 {"kind":"result","output":true}' });
  });

  test("given, is where the agents work, used as is and left as it is", async () => {
    const mine = mkdtempSync(join(tmpdir(), "core-cwd-"));
    try {
      const run = await testWorkflow(where, {
        cwd: mine,
        agents: { a: answer((turn) => (writeFileSync(join(turn.cwd, "out.txt"), "kept"), "wrote")) },
      });
      expect(run.value).toBe(mine);
      expect(run.turnsOf("a")[0]?.cwd).toBe(mine);
      expect(readFileSync(join(mine, "out.txt"), "utf8")).toBe("kept");
    } finally {
      rmSync(mine, { recursive: true, force: true });
    }
  });
});
