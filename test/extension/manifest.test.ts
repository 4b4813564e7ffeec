// package.json against what it is generated from: the settings schema (server/settings.ts), the
// command table (extension/vscodeFree/commands.ts), the grammars in syntaxes/. Fails when one of them changed
// and `node scripts/genManifest.mjs` was not run.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CATEGORY, COMMANDS } from "../../extension/vscodeFree/commands.ts";
import { Commands, PACKAGE_SERVER_FIELD, PROTOCOL_VERSION } from "../../server/protocol.ts";
import { SettingsSchema } from "../../server/settings.ts";
import { withClientManifest } from "../../scripts/manifest.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const contributes = manifest.contributes;

describe("the extension manifest", () => {
  test("declares the protocol its language server speaks and where that server is, for editors that start the workspace's own Turnlens", () => {
    expect(manifest[PACKAGE_SERVER_FIELD]).toEqual({ protocol: PROTOCOL_VERSION, main: "dist/server.js" });
  });

  test("holds what scripts/genManifest.mjs writes (run it after changing settings or commands)", () => {
    expect(manifest).toEqual(withClientManifest(manifest));
  });

  test("has every server setting as turnlens.<name>, with a scope, a description and the schema's default", () => {
    const properties = contributes.configuration.properties;
    for (const [name, schema] of Object.entries(SettingsSchema.properties) as Array<[string, unknown]>) {
      const setting = properties[`turnlens.${name}`];
      expect(setting).toBeDefined();
      expect(typeof setting.scope).toBe("string");
      expect(setting.description).toBe((schema as { description: string }).description);
      expect(setting.default).toEqual((schema as { default: unknown }).default);
    }
    for (const [key, setting] of Object.entries(properties) as Array<[string, { scope?: string; description?: string }]>) {
      expect(key.startsWith("turnlens.")).toBe(true);
      expect(setting.scope && setting.description ? key : `${key} lacks a scope or a description`).toBe(key);
    }
  });

  test("contributes every command of extension/vscodeFree/commands.ts with a category, and no other", () => {
    const contributed = contributes.commands as Array<{ command: string; title: string; category?: string }>;
    expect(contributed.map((command) => command.command).sort()).toEqual(COMMANDS.map((command) => command.id).sort());
    for (const command of contributed) expect(command.category).toBe(CATEGORY);
    for (const command of COMMANDS) expect(manifest.activationEvents).toContain(`onCommand:${command.id}`);
  });

  test("puts no button over the peek's diff: the run's timeline is on the failure message's row and context menu in Test Results", () => {
    // VS Code draws testing/message/content as a button over the peek's message, which covers a diff's Actual side.
    expect(contributes.menus["testing/message/content"]).toBeUndefined();
    const onMessage = contributes.menus["testing/message/context"] as Array<{ command: string; when: string; group?: string }>;
    expect(onMessage.map((entry) => `${entry.command} ${entry.group ?? "context menu"}`)).toEqual(["turnlens.showTimeline inline", "turnlens.showTimeline context menu"]);
    for (const entry of onMessage) expect(entry.when).toBe("testMessage == turnlens.hasTimeline");
    // An inline action shows as its icon.
    expect(contributes.commands.find((command: { command: string }) => command.command === "turnlens.showTimeline").icon).toMatch(/^\$\([a-z-]+\)$/);
  });

  test("offers Update Snapshots on a Turnlens test in the Testing view whose snapshot did not match, a command of its own that calls the server's turnlens.updateSnapshot", () => {
    const onItem = contributes.menus["testing/item/context"] as Array<{ command: string; when: string }>;
    expect(onItem.find((entry) => entry.command === "turnlens.updateTestSnapshots")).toEqual({
      command: "turnlens.updateTestSnapshots",
      when: "controllerId == turnlens && testId in turnlens.snapshotFailures",
    });
    expect(contributes.commands.find((command: { command: string }) => command.command === "turnlens.updateTestSnapshots").title).toBe("Update Snapshots");
    expect(Commands.updateSnapshot).toBe("turnlens.updateSnapshot");
  });

  test("uses no command id the language client registers for the server's own commands", () => {
    const serverCommands = new Set<string>(Object.values(Commands));
    expect(COMMANDS.filter((command) => serverCommands.has(command.id))).toEqual([]);
  });

  test("points its languages and grammars at the grammars in syntaxes/", () => {
    for (const grammar of contributes.grammars as Array<{ path: string; scopeName: string; language?: string; injectTo?: string[] }>) {
      const path = join(ROOT, grammar.path);
      expect(existsSync(path)).toBe(true);
      expect(JSON.parse(readFileSync(path, "utf8")).scopeName).toBe(grammar.scopeName);
      if (grammar.language) expect(contributes.languages.map((language: { id: string }) => language.id)).toContain(grammar.language);
    }
    expect(contributes.grammars.find((grammar: { injectTo?: string[] }) => grammar.injectTo)?.injectTo).toEqual(["source.ts"]);
  });

  test("declares limited support in untrusted workspaces and starts from dist/extension.js", () => {
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe("limited");
    expect(manifest.main).toBe("./dist/extension.js");
    expect(manifest.activationEvents).toContain("workspaceContains:**/*.test.ts");
  });

  test("activates when a TypeScript or JavaScript file opens, not only when VS Code's workspace search finds a test file in time", () => {
    for (const language of ["typescript", "typescriptreact", "javascript", "javascriptreact"]) expect(manifest.activationEvents).toContain(`onLanguage:${language}`);
  });
});
