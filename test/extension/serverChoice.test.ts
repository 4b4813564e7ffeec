// Which Turnlens the extension starts (extension/vscodeFree/serverChoice.ts): the workspace's installed
// node_modules/turnlens when it speaks the extension's protocol and the workspace is trusted, else the
// bundled copy, with a reason naming both versions. Real folders in the OS temp dir.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseServer, describeChoice, findWorkspacePackage, readTurnlensPackage } from "../../extension/vscodeFree/serverChoice.ts";
import { PROTOCOL_VERSION } from "../../server/protocol.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "turnlens-choice-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let counter = 0;

/** A folder holding a Turnlens package: its package.json and, unless told otherwise, dist/server.js. */
function turnlensPackage(root: string, manifest: Record<string, unknown>, { built = true } = {}): string {
  mkdirSync(join(root, "dist"), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "turnlens", ...manifest }));
  if (built) writeFileSync(join(root, "dist", "server.js"), "");
  return root;
}

const bundled = readTurnlensPackage(
  turnlensPackage(join(base, "extension"), { version: "0.1.0", turnlensServer: { protocol: PROTOCOL_VERSION, main: "dist/server.js" } }),
)!;

/** A workspace folder with `node_modules/turnlens` (manifest given) or none (null). */
function workspace(manifest: Record<string, unknown> | null, options?: { built?: boolean }): string {
  const folder = join(base, `ws${++counter}`);
  mkdirSync(folder, { recursive: true });
  if (manifest) turnlensPackage(join(folder, "node_modules", "turnlens"), manifest, options);
  return folder;
}

const current = { protocol: PROTOCOL_VERSION, main: "dist/server.js" };

describe("the Turnlens the extension starts", () => {
  test("is the workspace's installed package when it speaks the extension's protocol", () => {
    const folder = workspace({ version: "0.2.0-team", turnlensServer: current });
    const choice = chooseServer({ folders: [folder], bundled, trusted: true });
    expect(choice).toEqual({
      source: "workspace",
      module: join(folder, "node_modules/turnlens/dist/server.js"),
      version: "0.2.0-team",
      root: join(folder, "node_modules/turnlens"),
    });
    expect(describeChoice(choice)).toBe(`using the workspace's Turnlens 0.2.0-team (${join(folder, "node_modules/turnlens/dist/server.js")})`);
  });

  test("is the bundled copy when the workspace has none installed", () => {
    const choice = chooseServer({ folders: [workspace(null)], bundled, trusted: true });
    expect(choice).toEqual({ source: "bundled", module: join(bundled.root, "dist/server.js"), version: "0.1.0", root: bundled.root });
    expect(describeChoice(choice)).toBe(`using the bundled Turnlens 0.1.0 (${join(bundled.root, "dist/server.js")}): the workspace has no node_modules/turnlens`);
  });

  test("is the workspace folder's own package, through a symlink in its node_modules", () => {
    const monorepo = workspace({ version: "0.3.0", turnlensServer: current });
    const linked = workspace(null);
    mkdirSync(join(linked, "node_modules"));
    symlinkSync(join(monorepo, "node_modules/turnlens"), join(linked, "node_modules/turnlens"));
    expect(chooseServer({ folders: [linked], bundled, trusted: true })).toMatchObject({
      source: "workspace",
      module: join(monorepo, "node_modules/turnlens/dist/server.js"),
      version: "0.3.0",
    });
  });

  test("is never a parent folder's node_modules/turnlens: the bundled copy starts, and the reason names the one above", () => {
    // The reliability case parent-node_modules-server: another user's package in a shared folder above the workspace.
    const shared = workspace(null);
    const planted = join(shared, "node_modules", "turnlens");
    mkdirSync(join(planted, "dist"), { recursive: true });
    writeFileSync(join(planted, "package.json"), JSON.stringify({ name: "turnlens", version: "9.9.9", turnlensServer: current }));
    writeFileSync(join(planted, "dist", "server.js"), 'require("fs").writeFileSync(__dirname + "/../../../PWNED", "x")');
    const project = join(shared, "proj");
    mkdirSync(project);
    expect(findWorkspacePackage(project)).toBeUndefined();
    const choice = chooseServer({ folders: [project], bundled, trusted: true });
    expect(choice).toEqual({
      source: "bundled",
      module: join(bundled.root, "dist/server.js"),
      version: "0.1.0",
      root: bundled.root,
      refusal: `the Turnlens in ${planted}, a folder above the workspace, is not started: only a Turnlens installed in the workspace folder is (open the folder that holds it)`,
    });
    const monorepoPackage = join(workspace({ version: "0.3.0", turnlensServer: current }), "packages", "app");
    mkdirSync(monorepoPackage, { recursive: true });
    expect(chooseServer({ folders: [monorepoPackage], bundled, trusted: true }).source).toBe("bundled");
  });

  test("is the first workspace folder's package that has one, in folder order", () => {
    const first = workspace({ version: "1.0.0", turnlensServer: current });
    const second = workspace({ version: "2.0.0", turnlensServer: current });
    expect(chooseServer({ folders: [workspace(null), first, second], bundled, trusted: true }).version).toBe("1.0.0");
  });

  test("is the bundled copy, naming both versions, when the workspace's is too old to declare a protocol", () => {
    const folder = workspace({ version: "0.0.9" });
    expect(chooseServer({ folders: [folder], bundled, trusted: true })).toEqual({
      source: "bundled",
      module: join(bundled.root, "dist/server.js"),
      version: "0.1.0",
      root: bundled.root,
      refusal: `the workspace's Turnlens 0.0.9 (${join(folder, "node_modules/turnlens")}) is too old for this extension (Turnlens 0.1.0, protocol ${PROTOCOL_VERSION}): its package.json declares no "turnlensServer" protocol; update it (npm install -D turnlens@latest)`,
    });
  });

  test("is the bundled copy when the workspace's speaks an older or a newer protocol", () => {
    const older = workspace({ version: "0.0.5", turnlensServer: { protocol: PROTOCOL_VERSION - 1, main: "dist/server.js" } });
    expect(chooseServer({ folders: [older], bundled, trusted: true }).refusal).toBe(
      `the workspace's Turnlens 0.0.5 (${join(older, "node_modules/turnlens")}) is too old for this extension (Turnlens 0.1.0, protocol ${PROTOCOL_VERSION}): it speaks protocol ${PROTOCOL_VERSION - 1}; update it (npm install -D turnlens@latest)`,
    );
    const newer = workspace({ version: "9.0.0", turnlensServer: { protocol: PROTOCOL_VERSION + 1, main: "dist/server.js" } });
    expect(chooseServer({ folders: [newer], bundled, trusted: true }).refusal).toBe(
      `the workspace's Turnlens 9.0.0 (${join(newer, "node_modules/turnlens")}) speaks protocol ${PROTOCOL_VERSION + 1}, newer than this extension (Turnlens 0.1.0, protocol ${PROTOCOL_VERSION}); update the extension`,
    );
  });

  test("is the bundled copy when the workspace's package is not built", () => {
    const folder = workspace({ version: "0.2.0", turnlensServer: current }, { built: false });
    expect(chooseServer({ folders: [folder], bundled, trusted: true })).toMatchObject({
      source: "bundled",
      refusal: `the workspace's Turnlens 0.2.0 (${join(folder, "node_modules/turnlens")}) has no dist/server.js (is it built?)`,
    });
  });

  test("never starts an untrusted workspace's own code", () => {
    const folder = workspace({ version: "0.2.0", turnlensServer: current });
    expect(chooseServer({ folders: [folder], bundled, trusted: false })).toMatchObject({
      source: "bundled",
      refusal: `the workspace's Turnlens 0.2.0 (${join(folder, "node_modules/turnlens")}) is not started because the workspace is not trusted; trust it to use it`,
    });
  });
});
