// `--cache.remote`: Bazel's simple HTTP cache protocol against a real server, Debian's nginx with
// WebDAV's PUT, started here: what one machine stores another checkout reads, and a server that is
// down leaves the run to run its tests. Skipped only when nginx is missing outside CI (.ci/run installs it).
import { describe, expect, test } from "bun:test";
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SLOW, tempProject, turnlens, until } from "./harness.ts";

const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path));

const PROJECT = {
  "workflows/alpha.ts": `import { defineWorkflow, Type } from "agentswf/workflow";
export const STEP = Type.Object({ done: Type.Boolean() });
export default defineWorkflow({
  name: "alpha",
  description: "Asks one agent once.",
  async run(wf) {
    const agent = await wf.agents.open({ key: "worker", runtime: "claude" });
    const { outcome } = await agent.run({ prompt: "Step.", schema: STEP });
    return { done: outcome.kind === "answered" && outcome.value.done };
  },
});
`,
  "t/alpha.test.ts": `import { expect, test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import alpha, { STEP } from "../workflows/alpha.ts";
test("alpha is done", async () => {
  const run = await testWorkflow(alpha, { agents: { worker: answer(STEP, { done: true }) } });
  expect(run.value).toEqual({ done: true });
});
`,
  "t/sum.test.ts": 'import { expect, test } from "bun:test";\ntest("adds", () => expect(1 + 1).toBe(2));\n',
};

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** nginx serving `folder` over WebDAV (GET, PUT) on a free port, in the foreground, as this test's child. */
async function startNginx(nginx: string, folder: string): Promise<{ url: string; store: string; stop(): void }> {
  const port = await freePort();
  const store = join(folder, "store");
  mkdirSync(store, { recursive: true });
  const temp = (name: string) => `${name}_temp_path ${join(folder, name)};`;
  writeFileSync(
    join(folder, "nginx.conf"),
    `daemon off;\nmaster_process off;\npid ${join(folder, "nginx.pid")};\nerror_log ${join(folder, "error.log")};\nevents {}\nhttp {\n  access_log off;\n  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}\n  server {\n    listen 127.0.0.1:${port};\n    root ${store};\n    client_max_body_size 0;\n    location / { dav_methods PUT; create_full_put_path on; }\n  }\n}\n`,
  );
  const child: ChildProcess = spawn(nginx, ["-p", folder, "-e", join(folder, "error.log"), "-c", join(folder, "nginx.conf")], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  await until(() => existsSync(join(folder, "nginx.pid")));
  // Listening once it answers: a GET of an entry it has not is a 404.
  for (;;) {
    const answered = await fetch(`${url}/ac/none`).then(
      (response) => response.status,
      () => 0,
    );
    if (answered === 404) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, store, stop: () => child.kill("SIGKILL") };
}

describe("--cache.remote", () => {
  if (!NGINX && !process.env.CI) {
    console.warn("test/runner/remoteCache.test.ts: skipped, nginx is not installed (apt-get install -y nginx-light)");
    test.skip("what one machine stores in a remote cache another reads (skipped: nginx is not installed)", () => {});
    return;
  }

  test(
    "what one machine stores in nginx another checkout reads, and a server that is down leaves the tests to run",
    async () => {
      const folder = mkdtempSync(join(tmpdir(), "turnlens-nginx-"));
      const server = await startNginx(NGINX!, folder);
      const first = tempProject(PROJECT);
      const second = tempProject(PROJECT);
      try {
        const stored = await turnlens(["t", "--cache", "--cache.remote", server.url], first.dir);
        expect(stored.code).toBe(0);
        expect(stored.stderr).toContain(`cache: 0 of 2 files from ${join(first.dir, "node_modules/.cache/turnlens")} and ${server.url}, 2 stored`);
        // Two files, each a manifest, a result and its run traces, as Bazel's protocol names them: /ac/<sha256>.
        expect(readdirSync(join(server.store, "ac")).filter((name) => /^[0-9a-f]{64}$/.test(name)).length).toBe(6);
        const read = await turnlens(["t", "--cache.remote", server.url, "--reporter", "json"], second.dir);
        expect(read.code).toBe(0);
        expect(JSON.parse(read.stdout).files.map((file: { cached?: boolean }) => file.cached)).toEqual([true, true]);
        expect(read.stderr).toContain("cache: 2 of 2 files from");
        server.stop();
        const down = await turnlens(["t", "--cache.dir", join(folder, "empty"), "--cache.remote", server.url], second.dir);
        expect(down.code).toBe(0);
        expect(down.stderr).toContain(`cache: ${server.url} is left alone for the rest of the run:`);
        expect(down.stderr).toContain("cache: 0 of 2 files from");
        expect(down.lastLine).toBe("2 passed, 0 failed");
      } finally {
        server.stop();
        first.remove();
        second.remove();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
