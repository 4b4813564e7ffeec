// turnlens.config.* is searched from the current folder up to the project's root (the nearest
// folder with a package.json or a .git) and no further, so a config another user (nobody, as root
// in CI) planted in a folder above the project (parent-config-runs) never runs; with no root at all, only the current
// folder is searched. Each runs `turnlens test` as a child process on folders made for it.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, SLOW, tempProject, turnlens } from "./harness.ts";

const PASSES = 'import { expect, test } from "bun:test";\ntest("x", () => { expect(1).toBe(1); });\n';

/** The case's planted config: when it runs, it writes `<dir>/PWNED_CONFIG`. */
function planted(dir: string): string {
  return readFileSync(join(FIXTURES, "parentConfig", "planted.turnlens.config.js"), "utf8").replace("__DIR__", dir);
}

const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];
const asRoot = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"], { stdio: "ignore" }).error === undefined;

/**
 * Writes the planted config as the case does: another user (`nobody`, through setpriv) in a shared
 * sticky folder (mode 1777). That needs root, which CI has: there a missing root fails the test;
 * elsewhere the file is written by this user, which the search bound treats the same.
 */
function plantAsAnotherUser(dir: string, text: string): void {
  const file = join(dir, "turnlens.config.js");
  if (!asRoot) {
    if (process.env.CI) throw new Error("the planted config is written by nobody through setpriv, which needs root: CI runs it so, as .ci/run does");
    writeFileSync(file, text);
    return;
  }
  chmodSync(dir, 0o1777);
  const planting = spawnSync("setpriv", [...NOBODY, process.execPath, "-e", "require('fs').writeFileSync(process.argv[1], process.argv[2])", file, text]);
  if (planting.status !== 0) throw new Error(`nobody could not plant the config: ${planting.stderr}`);
  expect(statSync(file).uid).toBe(65534);
}

/** A shared folder holding the planted config, and `victim/` below it with `files`. */
function plantedAbove(files: Record<string, string>): { parent: string; victim: string; remove(): void } {
  const folder = tempProject({});
  plantAsAnotherUser(folder.dir, planted(folder.dir));
  const victim = join(folder.dir, "victim");
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(victim, name, ".."), { recursive: true });
    writeFileSync(join(victim, name), text);
  }
  return { parent: folder.dir, victim, remove: folder.remove };
}

/** A .git folder as `git init` leaves it, enough to mark a project's root. */
const GIT = { ".git/HEAD": "ref: refs/heads/main\n" };
const PACKAGE = { "package.json": '{"name":"victim","private":true}\n' };

describe("the config search stops at the project's root", () => {
  test(
    "a turnlens.config.js in the folder above a project with package.json and .git does not run, and the project's tests pass",
    async () => {
      const folders = plantedAbove({ ...PACKAGE, ...GIT, "a.test.ts": PASSES });
      try {
        const result = await turnlens([], folders.victim);
        expect({ code: result.code, lastLine: result.lastLine, stderr: result.stderr }).toEqual({ code: 0, lastLine: "1 passed, 0 failed", stderr: "" });
        expect(existsSync(join(folders.parent, "PWNED_CONFIG"))).toBe(false);
      } finally {
        folders.remove();
      }
    },
    SLOW,
  );

  test(
    "a .git alone marks the root too: the config above it does not run",
    async () => {
      const folders = plantedAbove({ ...GIT, "a.test.ts": PASSES });
      try {
        const result = await turnlens([], folders.victim);
        expect(result.lastLine).toBe("1 passed, 0 failed");
        expect(existsSync(join(folders.parent, "PWNED_CONFIG"))).toBe(false);
      } finally {
        folders.remove();
      }
    },
    SLOW,
  );

  test(
    "the project's own config at its root still runs from a subfolder, and the one above the root does not",
    async () => {
      const own = 'require("fs").writeFileSync(__dirname + "/OWN_CONFIG", "ran");\nmodule.exports = { include: ["tests"] };\n';
      const folders = plantedAbove({ ...PACKAGE, ...GIT, "turnlens.config.js": own, "tests/a.test.ts": PASSES });
      try {
        const result = await turnlens([], join(folders.victim, "tests"));
        expect(result.lastLine).toBe("1 passed, 0 failed");
        expect(readFileSync(join(folders.victim, "OWN_CONFIG"), "utf8")).toBe("ran");
        expect(existsSync(join(folders.parent, "PWNED_CONFIG"))).toBe(false);
      } finally {
        folders.remove();
      }
    },
    SLOW,
  );

  test(
    "with no package.json or .git up to /, only the current folder's config is read: the one above it does not run",
    async () => {
      const own = 'require("fs").writeFileSync(__dirname + "/OWN_CONFIG", "ran");\nmodule.exports = {};\n';
      const folders = plantedAbove({ "loose/a.test.ts": PASSES, "configured/turnlens.config.js": own, "configured/a.test.ts": PASSES });
      try {
        const loose = await turnlens([], join(folders.victim, "loose"));
        expect(loose.lastLine).toBe("1 passed, 0 failed");
        expect(existsSync(join(folders.parent, "PWNED_CONFIG"))).toBe(false);
        const configured = await turnlens([], join(folders.victim, "configured"));
        expect(configured.lastLine).toBe("1 passed, 0 failed");
        expect(readFileSync(join(folders.victim, "configured", "OWN_CONFIG"), "utf8")).toBe("ran");
      } finally {
        folders.remove();
      }
    },
    SLOW,
  );
});
