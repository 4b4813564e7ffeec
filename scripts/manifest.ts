// The package.json keys the VS Code client owns: `contributes.configuration` from server/settings.ts,
// the commands, menus and `onCommand` events from extension/vscodeFree/commands.ts, and the fixed rest.
// scripts/genManifest.mjs writes them; test/extension/manifest.test.ts checks package.json holds them.
import { CATEGORY, COMMANDS } from "../extension/vscodeFree/commands.ts";
import { SETTINGS_SECTION, SettingsSchema, type Settings } from "../server/settings.ts";

type Scope = "application" | "machine" | "window" | "resource" | "language-overridable" | "machine-overridable";

/**
 * Where each setting may be set. `resource` for what the server reads per document (it asks with
 * the document's uri); `window` for what the server holds once (its worker pool, its log).
 */
export const SETTING_SCOPES: Record<keyof Settings, Scope> = {
  runMode: "resource",
  debounceMs: "resource",
  inlayHints: "resource",
  entryNeverReachedSeverity: "resource",
  workers: "window",
  testTimeout: "resource",
  logLevel: "window",
  completionBesideTypeScript: "resource",
  hoverWaitMs: "resource",
  // Read for workflow files, which the server keeps no per-document settings for.
  outcomeCoverage: "window",
};

/** Settings only the editor reads: vscode-languageclient traces the protocol under `<id>.trace.server`. */
const EDITOR_SETTINGS: Record<string, Record<string, unknown>> = {
  "turnlens.trace.server": {
    type: "string",
    enum: ["off", "messages", "verbose"],
    default: "off",
    scope: "window",
    description: "Writes the messages between VS Code and the Turnlens server to the Turnlens output channel.",
  },
};

/** One setting's JSON schema as VS Code reads it: unions of literals become `enum`. */
function settingSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const anyOf = schema.anyOf as Array<Record<string, unknown>> | undefined;
  if (anyOf?.every((member) => "const" in member)) {
    out.type = typeof anyOf[0]!.const;
    out.enum = anyOf.map((member) => member.const);
  } else out.type = schema.type;
  for (const key of ["minimum", "maximum", "default"]) if (schema[key] !== undefined) out[key] = schema[key];
  return out;
}

export function configuration(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  Object.entries(SettingsSchema.properties).forEach(([name, schema], order) => {
    properties[`${SETTINGS_SECTION}.${name}`] = {
      ...settingSchema(schema as unknown as Record<string, unknown>),
      scope: SETTING_SCOPES[name as keyof Settings],
      description: (schema as { description?: string }).description,
      order,
    };
  });
  return { title: "Turnlens", properties: { ...properties, ...EDITOR_SETTINGS } };
}

/** The test file names `workspaceContains` looks for (the runner's names); activation then checks imports. */
const TEST_FILE_NAMES = ["test", "spec"].flatMap((kind) => ["ts", "mts", "cts", "tsx", "js", "mjs", "cjs", "jsx"].map((extension) => `**/*.${kind}.${extension}`));

/**
 * The languages of those files: opening one activates the extension too. VS Code gives its
 * `workspaceContains` search a few seconds, and on a busy machine's cold window that search timed
 * out ("Not activating extension 'turnlens.turnlens': Timed out while searching…"): nothing but a
 * command activated it then, and an opened test file showed no results at all.
 */
const TEST_FILE_LANGUAGES = ["typescript", "typescriptreact", "javascript", "javascriptreact"];

/** Every key of package.json the client owns, as it must be. */
export function clientManifest(): Record<string, unknown> {
  return {
    displayName: "Turnlens",
    categories: ["Testing"],
    keywords: ["agents", "agent workflows", "workflow testing", "scripted agents", "test explorer", "language server"],
    main: "./dist/extension.js",
    activationEvents: [
      ...TEST_FILE_NAMES.map((glob) => `workspaceContains:${glob}`),
      ...TEST_FILE_LANGUAGES.map((language) => `onLanguage:${language}`),
      ...COMMANDS.map((command) => `onCommand:${command.id}`),
    ],
    capabilities: {
      untrustedWorkspaces: {
        supported: "limited",
        description: "In an untrusted workspace Turnlens runs no test, so no code of the workspace runs; the test tree and the static diagnostics still show.",
      },
      virtualWorkspaces: { supported: false, description: "Turnlens runs test files from disk with Node." },
    },
    contributes: {
      configuration: configuration(),
      commands: COMMANDS.map((command) => ({ command: command.id, title: command.title, category: CATEGORY, ...(command.icon ? { icon: command.icon } : {}) })),
      menus: {
        commandPalette: COMMANDS.filter((command) => command.when).map((command) => ({ command: command.id, when: command.when })),
        "testing/item/context": [
          { command: "turnlens.showTranscript", when: "controllerId == turnlens" },
          { command: "turnlens.showTimeline", when: "controllerId == turnlens" },
          { command: "turnlens.updateTestSnapshots", when: "controllerId == turnlens && testId in turnlens.snapshotFailures" },
        ],
        // A failed test's message in Test Results (and the peek's tree) gets "Show the Run's Timeline" as a button
        // on its row and in its context menu (extension/timelinePanel.ts). Not testing/message/content: VS Code
        // draws that as a button over the peek's diff, covering its Actual side.
        "testing/message/context": [
          { command: "turnlens.showTimeline", when: "testMessage == turnlens.hasTimeline", group: "inline" },
          { command: "turnlens.showTimeline", when: "testMessage == turnlens.hasTimeline" },
        ],
      },
      languages: [{ id: "turnlens-transcript", aliases: ["Turnlens Transcript"], extensions: [".turnlens-transcript"] }],
      grammars: [
        { language: "turnlens-transcript", scopeName: "source.turnlens-transcript", path: "./syntaxes/turnlens-transcript.tmLanguage.json" },
        { scopeName: "turnlens.script.injection", path: "./syntaxes/turnlens-script.injection.tmLanguage.json", injectTo: ["source.ts"] },
      ],
    },
  };
}

/** package.json with the client's keys set; every other key (and other helpers' `contributes.*`) kept as it is. */
export function withClientManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const client = clientManifest();
  const contributes = { ...(manifest.contributes as Record<string, unknown> | undefined), ...(client.contributes as Record<string, unknown>) };
  return { ...manifest, ...client, contributes };
}
