// A project config the language server cannot use (config-hangs-server): one that loops is stopped
// on the server's timer, a Proxy that throws and a key named "toString" are refused by name; each
// is logged and shown naming the file, and the server goes on answering and running the tests with
// the editor's settings. The config runs in a process of its own: a shutdown kills it.
import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_LOAD_TIMEOUT_MS } from "../../core/execution/limits.ts";
import { FIXTURES, tempProject, until } from "../runner/harness.ts";
import { SLOW, TestServer } from "./harness.ts";

let server: TestServer | undefined;
let project: { dir: string; remove(): void } | undefined;
afterEach(() => {
  server?.dispose();
  project?.remove();
});

const RUNS = ['import { test } from "bun:test";', "", 'test("runs", () => {', '  throw new Error("the test ran");', "});", ""].join("\n");
const KEYS =
  'it takes "include", "exclude", "testTimeout", "maxWorkers", "reporters", "outputFile", "silent", "setupFiles", "passWithNoTests", "bail", "testNamePattern", "define", "env"';

function caseFile(name: string): string {
  return readFileSync(join(FIXTURES, "configHangs", name), "utf8");
}

/** The first warning or error the server logged (from `from` on). */
async function firstProblem(on: TestServer, from = 0): Promise<string> {
  const params = await on.waitFor<{ type: number; message: string }>("window/logMessage", (message) => message.type <= 2, from);
  return params.message;
}

/** The messages shown to the user (window/showMessage). */
function shown(on: TestServer): string[] {
  return on.all<{ message: string }>("window/showMessage").map((params) => params.message);
}

/** The live processes (zombies left out) whose command line names `text`. */
function processesNaming(text: string): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "latin1");
        if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return false;
        return readFileSync(`/proc/${name}/cmdline`, "latin1").includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A server with a test file open in a project whose config loops, once the debounce ended, the run
 * started and its config is loading in a process of its own; `from` is where the open's messages start.
 */
async function openWithLoopingConfig(): Promise<{ live: TestServer; config: string; uri: string; from: number }> {
  project = tempProject({ "turnlens.config.js": caseFile("loops.turnlens.config.js"), "runs.test.ts": RUNS });
  const config = join(project.dir, "turnlens.config.js");
  const live = await TestServer.started();
  server = live;
  const from = live.received.length;
  const uri = await live.open(join(project.dir, "runs.test.ts"));
  await live.advance(300);
  await until(() => processesNaming(config).length === 1);
  return { live, config, uri, from };
}

describe("a project config the editor cannot use", () => {
  test(
    "a turnlens.config.js that loops is stopped after 10 s on the server's timer, said by name, and the test runs with the editor's settings",
    async () => {
      const { live, config, uri, from } = await openWithLoopingConfig();
      // The server answers while the config spins.
      await live.flush();
      live.timer.advance(CONFIG_LOAD_TIMEOUT_MS);
      const problem = `the project's config is not used: ${config} did not finish loading within 10 s and was stopped (a config must export its settings, not loop or wait)`;
      expect(await firstProblem(live, from)).toBe(problem);
      const diagnostics = await live.runEnded(uri, from);
      expect(diagnostics?.diagnostics.map((diagnostic) => diagnostic.message)).toEqual(["the test ran"]);
      expect(shown(live)).toEqual([`Turnlens: ${problem}. The tests run with the editor's settings.`]);
      await until(() => processesNaming(config).length === 0);
      expect(await live.request("shutdown", null)).toBe(null);
    },
    SLOW,
  );

  test(
    "shutdown is answered while a config loops, and the config's process is killed",
    async () => {
      const { live, config } = await openWithLoopingConfig();
      expect(await live.request("shutdown", null)).toBe(null);
      await until(() => processesNaming(config).length === 0);
    },
    SLOW,
  );

  const REFUSED: Array<{ name: string; config: string; says: (config: string) => string }> = [
    {
      name: "a config Proxy that throws is said naming the file and the error, and the test runs",
      config: "proxy.turnlens.config.js",
      says: (config) => `${config} failed to load: get boom`,
    },
    {
      name: 'a config key named "toString" is an unknown key, said with the keys a config takes, and the test runs',
      config: "tostring.turnlens.config.js",
      says: (config) => `${config} takes no option "toString"; ${KEYS}`,
    },
  ];
  for (const refused of REFUSED) {
    test(
      refused.name,
      async () => {
        project = tempProject({ "turnlens.config.js": caseFile(refused.config), "runs.test.ts": RUNS });
        server = await TestServer.started();
        const from = server.received.length;
        const uri = await server.open(join(project.dir, "runs.test.ts"));
        await server.advance(300);
        expect(await firstProblem(server, from)).toBe(`the project's config is not used: ${refused.says(join(project.dir, "turnlens.config.js"))}`);
        const diagnostics = await server.runEnded(uri, from);
        expect(diagnostics?.diagnostics.map((diagnostic) => diagnostic.message)).toEqual(["the test ran"]);
      },
      SLOW,
    );
  }
});
