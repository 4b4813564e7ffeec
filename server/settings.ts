// The language server's settings, as one TypeBox object: each setting's type, default and
// description. The VS Code extension generates `contributes.configuration` from it.
import Type, { type Static } from "typebox";
import { Value } from "typebox/value";
import { MAX_TIMER_MS } from "../core/execution/limits.ts";

/** The configuration section: settings are read as `turnlens.<name>`. */
export const SETTINGS_SECTION = "turnlens";

export const SettingsSchema = Type.Object({
  runMode: Type.Union([Type.Literal("onType"), Type.Literal("onSave"), Type.Literal("manual")], {
    default: "onType",
    description:
      "When the tests of an open file run: `onType` after each pause in typing, `onSave` when the file is saved, `manual` only from a code lens, a command or the test explorer.",
  }),
  debounceMs: Type.Integer({
    minimum: 0,
    maximum: 60_000,
    // 10, not 25 (issue 29, P2): keys a person types or a key repeats come 30 ms and more apart, so
    // each ended its debounce at 25 ms too; what 10 ms still merges is an editor's own changes sent
    // together. docs/language-server.md, "A short debounce".
    default: 10,
    description:
      "How long typing must pause before the file's tests run, in milliseconds. Static diagnostics refresh at once, and a newer edit cancels a run of an older version, so a short pause is enough.",
  }),
  inlayHints: Type.Boolean({
    default: true,
    description: "Show, at the end of each script entry's line, the turns it met and how they ended.",
  }),
  entryNeverReachedSeverity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("information"), Type.Literal("hint")], {
    default: "warning",
    description: "The severity of the diagnostic on a list entry no turn reached.",
  }),
  workers: Type.Integer({
    minimum: 1,
    maximum: 16,
    default: 2,
    description: "How many worker processes run test files at once. Each stays warm between runs.",
  }),
  testTimeout: Type.Integer({
    minimum: 1,
    // What a timer can hold: a longer timeout would fire at once.
    maximum: MAX_TIMER_MS,
    default: 5000,
    description: "The default per-test timeout, in milliseconds. A test that blocks its worker longer is killed.",
  }),
  logLevel: Type.Union([Type.Literal("error"), Type.Literal("warn"), Type.Literal("info"), Type.Literal("debug")], {
    default: "info",
    description: "How much the server writes to its output channel.",
  }),
  completionBesideTypeScript: Type.Boolean({
    default: true,
    description:
      "The editor's own TypeScript completes test files too (VS Code always; Neovim with ts_ls or vtsls, Emacs with typescript-language-server): Turnlens's completion then offers only what TypeScript cannot (a whole value the schema accepts, with each property's description; enum values the types do not name; a decision's keys and answers), never a second copy of TypeScript's property names, literals, `true`/`false` or `noAnswer` methods. Set it to false in an editor that runs no TypeScript server, for those from Turnlens too.",
  }),
  hoverWaitMs: Type.Integer({
    minimum: 0,
    maximum: 10_000,
    default: 3000,
    description:
      "How long a hover on a test file whose run is pending (after an edit, a quick fix, a save) waits for that run, in milliseconds, before it answers with the last run's results marked stale. 0 answers at once.",
  }),
  outcomeCoverage: Type.Boolean({
    default: true,
    description: "In a workflow file, show at each agent's open call the outcomes no test gives it (an information diagnostic), with a quick fix adding such a test.",
  }),
});

export type Settings = Static<typeof SettingsSchema>;

/** Every setting at its default. */
export const defaultSettings: Settings = Value.Create(SettingsSchema) as Settings;

/** Settings from whatever the client sent: each valid value is taken, anything else is the default. */
export function readSettings(raw: unknown): Settings {
  const given = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const settings: Record<string, unknown> = { ...defaultSettings };
  for (const [name, schema] of Object.entries(SettingsSchema.properties)) {
    if (given[name] !== undefined && Value.Check(schema, given[name])) settings[name] = given[name];
  }
  return settings as Settings;
}
