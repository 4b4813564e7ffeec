// The one table of `turnlens test`'s reporters, as Vitest's `ReportersMap`: for each name of
// `REPORTER_NAMES` (turnlens/config), how it is made and how the run treats it (its file, its
// document, its count line, its options). Everything else about a reporter is derived from here.
import { REPORTER_NAMES, type ReporterName } from "../../project/config.ts";
import { AgentReporter } from "./agentReporter.ts";
import { BlobReporter, defaultBlobFile } from "./blobReporter.ts";
import { DefaultReporter } from "./defaultReporter.ts";
import { DotReporter } from "./dotReporter.ts";
import { GithubActionsReporter } from "./githubActionsReporter.ts";
import { JsonReporter } from "./jsonReporter.ts";
import { JunitReporter, type JunitOptions } from "./junitReporter.ts";
import type { Out, Reporter } from "./reporter.ts";
import { TapReporter } from "./tapReporter.ts";
import { VerboseReporter } from "./verboseReporter.ts";

/** What an option's value may be (`typeof` of it): the refusal names them. */
export type OptionType = "string" | "boolean" | "function";

/** A reporter's options, each with the types its value may have. */
export type ReporterOptionTypes<Options> = { readonly [Key in keyof Required<Options>]: readonly OptionType[] };

export interface ReporterKind {
  /** Another name of that reporter (`pretty` of `default`): made alike, given once, left out of --help. */
  readonly sameAs: ReporterName | undefined;
  /** A string `--outputFile <path>` (not `--outputFile.<name>`) is this reporter's file, as in Vitest. */
  readonly fileByDefault: boolean;
  /** Its output is one document a program reads: nothing else may share its stream. */
  readonly document: boolean;
  /** The extension of the report file a refusal suggests (`report.xml`). */
  readonly extension: string;
  /** The file it writes when none is given, by the run's shard: it never writes to the terminal (blob's). */
  readonly defaultFile: ((shard: { index: number; count: number } | undefined) => string) | undefined;
  /** It ends with the count line itself; with none that does, the group prints it on stderr. */
  readonly counts: boolean;
  /** It reads the tests' run traces (which otherwise stay in the worker). */
  readonly readsTraces: boolean;
  /** It prints fixes that name schemas: the worker then names them, as for the editor. */
  readonly namesSchemas: boolean;
  /** On the terminal, beside no reporter that prints the tests' output, it keeps that output off the terminal. */
  readonly hidesTestOutput: boolean;
  /** The options it takes besides `outputFile`, which every reporter takes. */
  readonly options: Readonly<Record<string, readonly OptionType[]>>;
  /** The reporter, writing to `out`, with its options (checked against `options`). */
  readonly make: (out: Out, options: Record<string, unknown>) => Reporter;
}

const JUNIT_OPTIONS: ReporterOptionTypes<JunitOptions> = {
  suiteName: ["string"],
  classnameTemplate: ["string", "function"],
  addFileAttribute: ["boolean"],
  includeConsoleOutput: ["boolean"],
};

/** The facets of a printout for people in a terminal, as the default reporter writes it: a reporter that is one says so by spreading them. */
const TERMINAL_PRINTOUT = {
  sameAs: undefined,
  fileByDefault: false,
  document: false,
  extension: "txt",
  defaultFile: undefined,
  counts: true,
  readsTraces: false,
  namesSchemas: false,
  hidesTestOutput: false,
  options: {},
} as const satisfies Omit<ReporterKind, "make">;

/**
 * Every reporter by name (docs/runner.md, Reporters); messages list them in REPORTER_NAMES's order.
 * Each entry states every facet, or that it is a terminal printout: a new reporter's author decides
 * each one, none is taken by default.
 */
export const REPORTERS: Readonly<Record<ReporterName, ReporterKind>> = {
  default: {
    ...TERMINAL_PRINTOUT,
    make: (out) => new DefaultReporter(out),
  },
  pretty: {
    ...TERMINAL_PRINTOUT,
    sameAs: "default",
    make: (out) => new DefaultReporter(out),
  },
  dot: {
    ...TERMINAL_PRINTOUT,
    make: (out) => new DotReporter(out),
  },
  verbose: {
    ...TERMINAL_PRINTOUT,
    make: (out) => new VerboseReporter(out),
  },
  json: {
    sameAs: undefined,
    fileByDefault: true,
    document: true,
    extension: "json",
    defaultFile: undefined,
    counts: false,
    readsTraces: true,
    namesSchemas: false,
    hidesTestOutput: false,
    options: {},
    make: (out) => new JsonReporter(out),
  },
  junit: {
    sameAs: undefined,
    fileByDefault: true,
    document: true,
    extension: "xml",
    defaultFile: undefined,
    counts: false,
    readsTraces: false,
    namesSchemas: false,
    hidesTestOutput: false,
    options: JUNIT_OPTIONS,
    make: (out, options) => new JunitReporter(out, options as JunitOptions),
  },
  tap: {
    sameAs: undefined,
    fileByDefault: false,
    document: true,
    extension: "tap",
    defaultFile: undefined,
    counts: false,
    readsTraces: false,
    namesSchemas: false,
    hidesTestOutput: false,
    options: {},
    make: (out) => new TapReporter(out),
  },
  "github-actions": {
    sameAs: undefined,
    fileByDefault: false,
    document: false,
    extension: "txt",
    defaultFile: undefined,
    counts: false,
    readsTraces: false,
    namesSchemas: false,
    hidesTestOutput: false,
    options: {},
    make: (out) => new GithubActionsReporter(out),
  },
  agent: {
    sameAs: undefined,
    fileByDefault: false,
    document: false,
    extension: "txt",
    defaultFile: undefined,
    counts: true,
    readsTraces: true,
    namesSchemas: true,
    hidesTestOutput: true,
    options: {},
    make: (out) => new AgentReporter(out),
  },
  blob: {
    sameAs: undefined,
    fileByDefault: false,
    document: true,
    extension: "json",
    defaultFile: defaultBlobFile,
    counts: false,
    readsTraces: true,
    namesSchemas: true,
    hidesTestOutput: false,
    options: {},
    make: (out) => new BlobReporter(out),
  },
};

/** The reporters a string `--outputFile` is for (json, junit), in REPORTER_NAMES's order. */
export const FILE_BY_DEFAULT: readonly ReporterName[] = REPORTER_NAMES.filter((name) => REPORTERS[name].fileByDefault);

/** Whether `name` is a reporter's name. */
export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}

/** The reporter a name is: its other name (`pretty`) is the one it is another name of. */
export function canonicalReporter(name: ReporterName): ReporterName {
  return REPORTERS[name].sameAs ?? name;
}
