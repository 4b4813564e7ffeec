// Starts code-server (from the e2e cache, on Node 24) on 127.0.0.1 with auth off, throwaway
// user-data/extensions/XDG/TMPDIR dirs and the smoke-test driver on (so a page can run extension
// tests), installs .vsix files first, and stops the whole process tree by its process group.
import { spawn, execFileSync } from "node:child_process";
import { mkdirSync, openSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

const SETTINGS = {
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "window.commandCenter": false,
  "git.enabled": false,
  "typescript.disableAutomaticTypeAcquisition": true,
  "typescript.surveys.enabled": false,
  "editor.minimap.enabled": false,
};

/** A free TCP port on 127.0.0.1 (the OS picks it; code-server binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server. `dir` is an empty run folder; `env` is added to code-server's environment,
 * which its extension hosts inherit (so tests can read it from process.env).
 * Returns { url, port, pid, log, stop() }.
 */
export async function startCodeServer({ cache, dir, vsix = [], env = {}, settings = {} }) {
  const node = join(cache, "bin24/node");
  const entry = join(cache, "cs/node_modules/code-server/out/node/entry.js");
  for (const sub of ["ud/User", "ext", "xdg/config", "xdg/data", "xdg/cache", "tmp"]) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, "ud/User/settings.json"), JSON.stringify({ ...SETTINGS, ...settings }, null, 2));
  // XDG_* and TMPDIR keep code-server's config, logs and sockets out of ~ and /tmp.
  const childEnv = {
    ...process.env,
    XDG_CONFIG_HOME: join(dir, "xdg/config"),
    XDG_DATA_HOME: join(dir, "xdg/data"),
    XDG_CACHE_HOME: join(dir, "xdg/cache"),
    TMPDIR: join(dir, "tmp"),
    ...env,
  };
  const common = ["--config", join(dir, "config.yaml"), "--user-data-dir", join(dir, "ud"), "--extensions-dir", join(dir, "ext")];
  for (const file of vsix) {
    const out = execFileSync(node, [entry, ...common, "--force", "--install-extension", file], { env: childEnv, encoding: "utf8" });
    if (!/successfully installed/i.test(out)) throw new Error(`installing ${file} failed:\n${out}`);
    console.log(`[e2e] ${out.trim().split("\n").pop()}`);
  }
  const port = await freePort();
  const log = join(dir, "server.log");
  const out = openSync(log, "a");
  const child = spawn(
    node,
    [
      entry,
      ...common,
      "--bind-addr",
      `127.0.0.1:${port}`,
      "--auth",
      "none",
      "--disable-telemetry",
      "--disable-update-check",
      "--disable-workspace-trust",
      "--disable-getting-started-override",
      "--vscode-option",
      "enable-smoke-test-driver",
    ],
    // its own process group, so stop() can end the server and every child it forked (extension
    // hosts, file watcher, our language server and its workers) by that one id
    { env: childEnv, stdio: ["ignore", out, out], detached: true },
  );
  let exited = false;
  const exit = new Promise((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited at start; see ${log}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`code-server did not answer on ${url} in 60 s; see ${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  async function stop() {
    const group = -child.pid;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      process.kill(group, "SIGTERM");
    } catch {}
    await Promise.race([exit, new Promise((r) => setTimeout(r, 5000))]);
    // a --type=fileWatcher child can outlive the parent for a few seconds
    for (const end = Date.now() + 15_000; alive() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 200));
    if (alive())
      try {
        process.kill(group, "SIGKILL");
      } catch {}
  }
  return { url, port, pid: child.pid, log, stop };
}
