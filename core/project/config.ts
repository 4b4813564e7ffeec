// `turnlens/config`: the type of a turnlens.config.ts and `defineConfig`, which only gives it that
// type (so a wrong key or type is a tsc error). No Node imports: a config file bundles this alone.

/**
 * The reporters `turnlens test` has (docs/runner.md, Reporters); `default` is `pretty`. The one list
 * of their names: what each is and does is its entry in core/runner/reporters/reporterMap.ts, which
 * tsc demands for each name here (this file imports nothing, since a config file bundles it alone).
 */
export const REPORTER_NAMES = ["default", "pretty", "dot", "verbose", "json", "junit", "tap", "github-actions", "agent", "blob"] as const;

export type ReporterName = (typeof REPORTER_NAMES)[number];

/** A reporter by name, or by name with its options, as Vitest takes them: `["junit", { suiteName: "x" }]`. */
export type ReporterConfig = ReporterName | readonly [ReporterName, Record<string, unknown>];

/** What `turnlens test` reads from turnlens.config.ts (or .mts, .js, .mjs, .json). Every key is optional. */
export interface TurnlensConfig {
  /** Files and folders searched for test files when no path is given (relative to the config's folder). */
  include?: readonly string[];
  /** Globs (relative to the config's folder) skipped in a folder search: `**`, `*`, `?`, `{a,b}`. */
  exclude?: readonly string[];
  /** The per-test timeout in milliseconds (default 5000); 0 disables it. `--testTimeout` wins. */
  testTimeout?: number;
  /** How many worker processes run files at once: a number, or a share of the cores such as "50%". */
  maxWorkers?: number | `${number}%`;
  /** Reporters, each a name or `[name, options]` (default: `["default"]`). `--reporter` wins. */
  reporters?: ReporterConfig | readonly ReporterConfig[];
  /** Where the json/junit reporters write: one path, or a path per reporter (`{ junit: "junit.xml" }`). */
  outputFile?: string | Readonly<Record<string, string>>;
  /** Drops what the tests print (console output); the reports stay. */
  silent?: boolean;
  /** Files run in each worker before each test file (relative to the config's folder): hooks, globals. */
  setupFiles?: string | readonly string[];
  /** Exit 0 when no test ran (nothing found, `-t` matching nothing, an empty shard). */
  passWithNoTests?: boolean;
  /** Stop the run after this many failed tests (0: never, the default). */
  bail?: number;
  /** Only tests whose full name matches run, as `-t`. */
  testNamePattern?: string | RegExp;
  /**
   * Names replaced in test files and the files they bundle, as Vite's and Vitest's `define`: a string
   * is source text (JSON such as `'"text"'`, or a name such as `"process.env.MODE"`), any other value
   * stands for itself. A plain name becomes a global the file may reassign; `import.meta.env.X` and
   * `process.env.X` set that variable; a dotted name is replaced where it is read (docs/config.md).
   */
  define?: Readonly<Record<string, unknown>>;
  /** Environment variables each test file runs with (`process.env`, `import.meta.env`), as Vitest's `test.env`. */
  env?: Readonly<Record<string, string>>;
}

/** Returns the config as given: it is there for the type, so an editor and tsc check each key. */
export function defineConfig(config: TurnlensConfig): TurnlensConfig {
  return config;
}
