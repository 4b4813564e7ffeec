// The language server reads the project's turnlens.config.* as `turnlens test` does: its testTimeout
// (over the editor's setting) and its setupFiles apply to the editor's runs; a config it cannot use
// is logged and the runs go on with the editor's settings.
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, tempProject } from "../runner/harness.ts";
import { SLOW, TestServer, type StartOptions } from "./harness.ts";

let server: TestServer | undefined;
let project: { dir: string; remove(): void } | undefined;
afterEach(() => {
  server?.dispose();
  project?.remove();
});

const WAITS = ['import { test } from "bun:test";', "", 'test("waits", async () => {', "  await new Promise((resolve) => setTimeout(resolve, 3000));", "});", ""].join(
  "\n",
);

/** An editor whose testTimeout setting is `ms`. */
const editorTimeout = (ms: number): StartOptions => ({ initializationOptions: { settings: { testTimeout: ms } } });

/** Starts a server with `options`, runs the test file at `path` and returns its diagnostics' messages. */
async function messagesOfRun(path: string, options: StartOptions = {}): Promise<string[]> {
  server = await TestServer.started(options);
  const { diagnostics } = await server.openAndRun(path);
  return diagnostics.diagnostics.map((diagnostic) => String(diagnostic.message));
}

describe("the project's config file in the editor", () => {
  test(
    "a testTimeout in turnlens.config.json times out an editor run at that timeout, not the setting's",
    async () => {
      project = tempProject({ "turnlens.config.json": JSON.stringify({ testTimeout: 300 }), "waits.test.ts": WAITS });
      expect(await messagesOfRun(join(project.dir, "waits.test.ts"), editorTimeout(60_000))).toEqual(['test "waits" timed out after 300ms']);
    },
    SLOW,
  );

  test(
    "setupFiles of turnlens.config.ts run before the test file in the editor's run",
    async () => {
      project = tempProject({
        "turnlens.config.ts": 'import { defineConfig } from "turnlens/config";\nexport default defineConfig({ setupFiles: ["./setup.ts"] });\n',
        "setup.ts": "(globalThis as Record<string, unknown>).fromSetup = 'set up';\n",
        "uses.test.ts": [
          'import { expect, test } from "bun:test";',
          "",
          'test("sees the setup", () => {',
          '  expect((globalThis as Record<string, unknown>).fromSetup).toBe("not set");',
          "});",
          "",
        ].join("\n"),
      });
      const messages = await messagesOfRun(join(project.dir, "uses.test.ts"));
      // The failure shows what the setup file set: it ran first.
      expect(messages.map((message) => message.split("\n").find((line) => line.startsWith("Received")))).toEqual(['Received: "set up"']);
    },
    SLOW,
  );

  test(
    "a config with an unknown key is logged by name and the editor's timeout applies",
    async () => {
      project = tempProject({ "turnlens.config.json": JSON.stringify({ testTimout: 300 }), "waits.test.ts": WAITS });
      expect(await messagesOfRun(join(project.dir, "waits.test.ts"), editorTimeout(500))).toEqual(['test "waits" timed out after 500ms']);
      const logged = server!.received.flatMap(({ method, params }) => (method === "window/logMessage" ? [(params as { message: string }).message] : []));
      expect(logged.filter((line) => line.includes("config is not used"))).toEqual([
        `the project's config is not used: ${join(project.dir, "turnlens.config.json")} takes no option "testTimout"; did you mean "testTimeout"?`,
      ]);
    },
    SLOW,
  );

  test(
    "a turnlens.config.js planted above the project's package.json and .git is not run by the editor's runs",
    async () => {
      project = tempProject({});
      // parent-config-runs: the case's config, which writes PWNED_CONFIG beside it when it runs.
      const planted = readFileSync(join(FIXTURES, "parentConfig", "planted.turnlens.config.js"), "utf8").replace("__DIR__", project.dir);
      writeFileSync(join(project.dir, "turnlens.config.js"), planted);
      const victim = join(project.dir, "victim");
      mkdirSync(join(victim, ".git"), { recursive: true });
      writeFileSync(join(victim, ".git", "HEAD"), "ref: refs/heads/main\n");
      writeFileSync(join(victim, "package.json"), '{"name":"victim","private":true}\n');
      writeFileSync(join(victim, "waits.test.ts"), WAITS);
      expect(await messagesOfRun(join(victim, "waits.test.ts"), editorTimeout(500))).toEqual(['test "waits" timed out after 500ms']);
      expect(existsSync(join(project.dir, "PWNED_CONFIG"))).toBe(false);
    },
    SLOW,
  );

  test(
    "with no package.json or .git, the config at the workspace folder applies to a test file in a subfolder of it",
    async () => {
      project = tempProject({ "turnlens.config.json": JSON.stringify({ testTimeout: 300 }), "tests/waits.test.ts": WAITS });
      expect(await messagesOfRun(join(project.dir, "tests", "waits.test.ts"), { root: project.dir, ...editorTimeout(60_000) })).toEqual([
        'test "waits" timed out after 300ms',
      ]);
    },
    SLOW,
  );
});
