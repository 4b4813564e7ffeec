// `turnlens test`'s flags, one table (TEST_FLAGS): each flag's names, its --help text (usage.ts)
// and what it sets; parseTestArgs reads the arguments through it, and refuses an unknown flag with
// the nearest one.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { MAX_TIMER_MS } from "../execution/limits.ts";
import { parsePercent } from "../project/configFile.ts";
import { nearestOr, suggestName } from "../workflow/unknownOptions.ts";
import { COVERAGE_REPORTER_NAMES } from "../coverage/lineCoverage.ts";
import type { ReportType } from "istanbul-reports";
import { REPORTER_NAMES } from "../project/config.ts";
import { FILE_BY_DEFAULT, REPORTERS } from "./reporters/reporterMap.ts";
import { CliUsageError, type CliOptions, type ConfigurableOption } from "./testOptions.ts";
import { DEFAULT_BLOB_FOLDER } from "./blobReport.ts";
import { DEFAULT_CACHE_FOLDER } from "./cacheStore.ts";

const isDirectory = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** One flag as written, for its handler: its value read as the flag takes one. */
export interface FlagArgument {
  /** The flag as written, before any `=`: `--timeout`, `-t`, `--outputFile.junit`. */
  readonly flag: string;
  /** The whole argument: `--watch=1`. */
  readonly arg: string;
  /** What follows the `=`, if anything. */
  readonly inline: string | undefined;
  /** The current folder, against which a path argument is looked for. */
  readonly cwd: string;
  /** The value: after `=`, else the next argument unless it is a flag. */
  value(): string | undefined;
  /** A value only when the next argument is one (`accept`), for flags whose value is optional. */
  optionalValue(accept: (next: string) => boolean): string | undefined;
  /** A flag without a value: true, or `=true`/`=false`. */
  noValue(): boolean;
}

export interface TestFlag {
  /** Its long name, as --help shows it. */
  readonly name: `--${string}`;
  /** Its one-letter name, shown before the long one. */
  readonly short?: `-${string}`;
  /** Older names it also answers to, which --help lists below the options. */
  readonly olderNames?: readonly `--${string}`[];
  /** `--name.<key>` too (`--outputFile.junit`): the handler reads the key from the flag. */
  readonly keyed?: boolean;
  /** What --help shows after the name: ` <path>`, ` [n]`, `[=json]`. */
  readonly value: string;
  /** --help's text for it, a line each. */
  readonly help: readonly string[];
  /** It means something to merge-reports (which runs no test): a reporter, coverage, timelines, durations. */
  readonly merges?: true;
  /** The option a config file may also set, and the flag wins over. */
  readonly sets?: ConfigurableOption;
  /** Reads the flag into the options; "help" for `--help`, "version" for `--version`. Throws CliUsageError. */
  readonly apply: (argument: FlagArgument, options: CliOptions) => FlagAction | undefined;
}

/** What a flag may ask for instead of a run: the help, or the version. */
export type FlagAction = "help" | "version";

/** The keys `--cache.<key>` takes. */
const CACHE_KEYS = ["dir", "remote"];

/** The keys `--coverage.<key>` takes (Vitest's `coverage.*` names). */
const COVERAGE_KEYS = ["reporter", "reportsDirectory"];

/** A value as a usage error quotes it: `"4/3"`, `""`. */
function shown(value: string): string {
  return JSON.stringify(value);
}

/** Why `text` is not a duration parseDuration takes, for the usage error after the rule. */
function notADuration(text: string): string {
  if (text.startsWith("-")) return `${shown(text)} is negative`;
  const unit = /^\d+(?:\.\d+)?\s*([a-zA-Z]+)$/.exec(text.trim())?.[1];
  if (unit !== undefined) return `${shown(text)} has the unit ${shown(unit)}; the units are ms, s and m`;
  return `${shown(text)} is not a number followed by ms, s or m`;
}

/** `500ms`, `10s`, `2m`, `1.5s`, or a bare number of milliseconds; `0` when `zero` allows it. */
export function parseDuration(text: string, zero = false): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const ms = m[2] === "s" ? n * 1000 : m[2] === "m" ? n * 60_000 : n;
  return (ms > 0 || (zero && ms === 0)) && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** The test name pattern of `-t`: a regular expression, refused by name when it is not one. */
function namePattern(source: string, where: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new CliUsageError(`${where} needs a valid regular expression: ${(error as Error).message}`);
  }
}

/** `text` in lines of at most `width` characters, broken between words. */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The width of --help's text column (usage.ts). */
export const HELP_WIDTH = 58;

/** The reporters --help names: each once (`pretty` is `default`'s other name), the last after "or". */
function reporterList(): string {
  const names = REPORTER_NAMES.filter((name) => REPORTERS[name].sameAs === undefined);
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** Every flag of `turnlens test`, in --help's order. */
export const TEST_FLAGS: readonly TestFlag[] = [
  {
    name: "--testNamePattern",
    short: "-t",
    olderNames: ["--test-name-pattern"],
    value: " <regex>",
    help: ["run only tests whose full name matches (names joined by", '" › " or by spaces: "math › adds" and "math adds" both match)'],
    sets: "pattern",
    apply: ({ flag, value }, options) => {
      const v = value();
      if (v === undefined) throw new CliUsageError(`${flag} needs a pattern`);
      if (v === "") throw new CliUsageError(`${flag} needs a pattern: it was given an empty one, which every test would match`);
      options.pattern = namePattern(v, flag);
      return undefined;
    },
  },
  {
    name: "--testTimeout",
    olderNames: ["--timeout"],
    value: " <duration>",
    help: ["per-test timeout such as 500ms, 10s or 2m (default 5s); 0: none"],
    sets: "timeoutMs",
    apply: ({ flag, value }, options) => {
      const v = value();
      const rule = `${flag} needs a duration such as 10s (0: no timeout)`;
      if (v === undefined) throw new CliUsageError(rule);
      const ms = parseDuration(v, true);
      if (ms === undefined) throw new CliUsageError(`${rule}: ${notADuration(v)}`);
      if (ms > MAX_TIMER_MS) throw new CliUsageError(`${flag} takes at most ${MAX_TIMER_MS}ms (about 24 days), what a timer can hold: ${shown(v)} is ${ms}ms`);
      options.timeoutMs = ms === 0 ? MAX_TIMER_MS : ms;
      return undefined;
    },
  },
  {
    name: "--reporter",
    merges: true,
    value: " <name>",
    help: wrapWords(`${reporterList()}; repeat it for several (docs/runner.md, Reporters)`, HELP_WIDTH),
    sets: "reporters",
    apply: ({ value }, options) => {
      const v = value();
      if (v === undefined || v === "") throw new CliUsageError("--reporter needs a name, such as --reporter dot");
      // Repeated, or comma-separated as Vitest also takes them.
      for (const name of v.split(",")) if (name !== "") options.reporters.push({ name, options: {} });
      return undefined;
    },
  },
  {
    name: "--outputFile",
    merges: true,
    keyed: true,
    value: " <path>",
    help: [`write the ${FILE_BY_DEFAULT.join("/")} report to a file (--outputFile.junit=<path>`, "for one reporter's)"],
    sets: "outputFile",
    apply: ({ flag, value }, options) => {
      const v = value();
      if (flag === "--outputFile") {
        if (v === undefined || v === "") throw new CliUsageError("--outputFile needs a path, such as --outputFile report.json");
        options.outputFile = v;
        return undefined;
      }
      // `--outputFile.junit=path`: one reporter's file.
      const reporter = flag.slice("--outputFile.".length);
      if (reporter === "" || v === undefined || v === "") throw new CliUsageError(`${flag} needs a path, such as ${flag || "--outputFile.junit"}=report.xml`);
      options.outputFile = { ...(typeof options.outputFile === "object" ? options.outputFile : {}), [reporter]: v };
      return undefined;
    },
  },
  {
    name: "--silent",
    merges: true,
    value: "",
    help: ["drop what the tests print"],
    sets: "silent",
    apply: ({ noValue }, options) => {
      options.silent = noValue();
      return undefined;
    },
  },
  {
    name: "--passWithNoTests",
    merges: true,
    value: "",
    help: ["exit 0 when no test ran (nothing found, -t matched nothing,", "an empty shard)"],
    sets: "passWithNoTests",
    apply: ({ noValue }, options) => {
      options.passWithNoTests = noValue();
      return undefined;
    },
  },
  {
    name: "--maxWorkers",
    value: " <n|n%>",
    help: ["at most n worker processes, or n% of the cores"],
    sets: "maxWorkers",
    apply: ({ value }, options) => {
      const v = value();
      const rule = "--maxWorkers needs a number of workers from 1, or a share of the cores such as 50%";
      if (v === undefined) throw new CliUsageError(rule);
      const n = /^\d+$/.test(v) ? Number(v) : undefined;
      if (n === 0) throw new CliUsageError(`${rule}: 0 workers would run no test`);
      if (n === undefined && parsePercent(v) === undefined) {
        const percent = /^(\d+(?:\.\d+)?)%$/.exec(v.trim());
        const wrong = percent
          ? `${shown(v)} is ${Number(percent[1]) > 100 ? "above 100%" : "no share at all"}`
          : `${shown(v)} is neither a whole number nor a percentage`;
        throw new CliUsageError(`${rule}: ${wrong}`);
      }
      options.maxWorkers = n ?? v;
      return undefined;
    },
  },
  {
    name: "--bail",
    value: " [n]",
    help: ["stop after n failed tests (default 1); what finished is reported"],
    sets: "bail",
    apply: ({ optionalValue }, options) => {
      const v = optionalValue((next) => /^\d+$/.test(next));
      if (v !== undefined && !/^\d+$/.test(v)) throw new CliUsageError(`--bail takes a number of failed tests, such as --bail 3: ${shown(v)} is not a whole number`);
      options.bail = v === undefined ? 1 : Number(v);
      return undefined;
    },
  },
  {
    name: "--update",
    short: "-u",
    value: "",
    help: ["rewrite the snapshots that differ and remove the obsolete ones", "(otherwise new snapshots are written, and none on a CI)"],
    apply: ({ noValue }, options) => {
      options.update = noValue();
      return undefined;
    },
  },
  {
    name: "--changed",
    value: " [ref]",
    help: ["only test files changed since the git ref (default: uncommitted", "changes), and those importing a changed file"],
    apply: ({ optionalValue, cwd }, options) => {
      // The next argument is the ref unless it is a path to test (`--changed test/`); `--changed=x` is always a ref.
      const v = optionalValue((next) => !existsSync(resolve(cwd, next)));
      if (v === "") throw new CliUsageError("--changed= needs a git ref, such as --changed=main");
      options.changed = v ?? true;
      return undefined;
    },
  },
  {
    name: "--shard",
    value: " <i/n|auto>",
    help: wrapWords(
      "run the i-th of n shares of the files, such as 1/3: split by time with --durations, else by count; auto: the share a CI's variables name (docs/ci.md)",
      HELP_WIDTH,
    ),
    apply: ({ value }, options) => {
      const v = value();
      const rule = "--shard needs i/n such as 1/3, the i-th of n shares, or auto";
      if (v === undefined) throw new CliUsageError(rule);
      if (v === "auto") {
        options.shardAuto = true;
        return undefined;
      }
      const m = /^(\d+)\/(\d+)$/.exec(v);
      if (!m) throw new CliUsageError(`${rule}: ${shown(v)} is not two whole numbers joined by /`);
      const index = Number(m[1]);
      const count = Number(m[2]);
      if (count < 1) throw new CliUsageError(`${rule}: ${shown(v)} has the count 0, and there is at least 1 share`);
      if (index < 1) throw new CliUsageError(`${rule}: ${shown(v)} has the index 0, and shares count from 1`);
      if (index > count) throw new CliUsageError(`${rule}: ${shown(v)} has the index ${index} above the count ${count}`);
      options.shard = { index, count };
      return undefined;
    },
  },
  {
    name: "--merge-reports",
    merges: true,
    value: " [dir]",
    help: wrapWords(`merge the blob reports of a run's shards in [dir] (${DEFAULT_BLOB_FOLDER} by default) into one report, as turnlens merge-reports does`, HELP_WIDTH),
    apply: ({ optionalValue, cwd }, options) => {
      options.mergeReports = optionalValue((next) => isDirectory(resolve(cwd, next))) ?? true;
      return undefined;
    },
  },
  {
    name: "--durations",
    merges: true,
    value: " <file>",
    help: wrapWords(
      "each test file's time: read from <file> to split --shard by time; an unsharded run (or merge-reports) writes its times into it (docs/ci.md)",
      HELP_WIDTH,
    ),
    apply: ({ value }, options) => {
      const v = value();
      if (v === undefined || v === "") throw new CliUsageError("--durations needs a file, such as --durations turnlens-durations.json");
      options.durations = v;
      return undefined;
    },
  },
  {
    name: "--config",
    merges: true,
    value: " <path>",
    help: ["the config file to use instead of the one found"],
    apply: ({ value }, options) => {
      const v = value();
      if (v === undefined || v === "") throw new CliUsageError("--config needs a path, such as --config turnlens.config.ts");
      options.configFile = v;
      return undefined;
    },
  },
  {
    name: "--watch",
    value: "",
    help: ["rerun the tests a changed file affects"],
    apply: ({ noValue }, options) => {
      options.watch = noValue();
      return undefined;
    },
  },
  {
    name: "--run",
    value: "",
    help: ["run once and exit; wins over --watch, as in Vitest"],
    apply: ({ noValue }, options) => {
      options.run = noValue();
      return undefined;
    },
  },
  {
    name: "--coverage",
    merges: true,
    keyed: true,
    value: "[=json]",
    help: wrapWords(
      "after the run, the line coverage of the code the tests ran (a table, and html, json and lcov in coverage/), " +
        "then the outcomes each workflow's agents were given (json: those as one document on stdout); " +
        "--coverage.reporter <name>, --coverage.reportsDirectory <dir> (docs/runner.md, Coverage)",
      HELP_WIDTH,
    ),
    apply: ({ flag, inline, value }, options) => {
      if (flag === "--coverage") {
        if (inline !== undefined && inline !== "json" && inline !== "table")
          throw new CliUsageError(`--coverage takes no value, or =json: ${inline === "" ? "= with nothing after it" : `=${inline}`} is neither`);
        options.coverage = inline === "json" ? "json" : "table";
        return undefined;
      }
      // `--coverage.<key>`, Vitest's names; either turns coverage on.
      const key = flag.slice("--coverage.".length);
      if (key === "reporter") {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("--coverage.reporter needs a name, such as --coverage.reporter lcov");
        for (const name of v.split(",")) {
          if (name === "") continue;
          if (!(COVERAGE_REPORTER_NAMES as string[]).includes(name))
            throw new CliUsageError(
              `--coverage.reporter takes no "${name}": ${nearestOr(name, COVERAGE_REPORTER_NAMES, `it takes ${COVERAGE_REPORTER_NAMES.join(", ")}`)}`,
            );
          options.coverageReporters = [...(options.coverageReporters ?? []), name as ReportType];
        }
      } else if (key === "reportsDirectory") {
        const v = value();
        if (v === undefined || v === "") throw new CliUsageError("--coverage.reportsDirectory needs a folder, such as --coverage.reportsDirectory coverage");
        options.coverageDirectory = v;
      } else {
        throw new CliUsageError(`--coverage takes no key "${key}": ${nearestOr(key, COVERAGE_KEYS, `it takes ${COVERAGE_KEYS.join(", ")}`)}`);
      }
      options.coverage ??= "table";
      return undefined;
    },
  },
  {
    name: "--cache",
    keyed: true,
    value: "",
    help: wrapWords(
      "report a test file whose inputs are unchanged from an earlier run's result, without running it; " +
        `--cache.dir <dir> (${DEFAULT_CACHE_FOLDER}), --cache.remote <url> (Bazel's HTTP cache protocol) (docs/ci.md)`,
      HELP_WIDTH,
    ),
    apply: ({ flag, value, noValue }, options) => {
      if (flag === "--cache") {
        options.cache = noValue() ? (options.cache ?? {}) : undefined;
        return undefined;
      }
      // `--cache.<key>`; either turns the cache on.
      const key = flag.slice("--cache.".length);
      const v = value();
      if (key === "dir") {
        if (v === undefined || v === "") throw new CliUsageError("--cache.dir needs a folder, such as --cache.dir .turnlens-cache");
        options.cache = { ...options.cache, dir: v };
      } else if (key === "remote") {
        if (v === undefined || !/^https?:\/\/[^/]/.test(v)) {
          throw new CliUsageError(
            `--cache.remote needs an http:// or https:// URL, such as --cache.remote http://cache.internal:8080${v === undefined ? "" : `: ${shown(v)} is not one`}`,
          );
        }
        options.cache = { ...options.cache, remote: v };
      } else {
        throw new CliUsageError(`--cache takes no key "${key}": ${nearestOr(key, CACHE_KEYS, `it takes ${CACHE_KEYS.join(", ")}`)}`);
      }
      return undefined;
    },
  },
  {
    name: "--cache-verify",
    value: " <n%>",
    help: wrapWords("with --cache, run n% of the files the cache has anyway and fail the run loudly when a result differs from the cached one", HELP_WIDTH),
    apply: ({ value }, options) => {
      const v = value();
      const match = v === undefined ? null : /^(\d+(?:\.\d+)?)%$/.exec(v.trim());
      const percent = match && Number(match[1]) <= 100 ? Number(match[1]) : undefined;
      if (percent === undefined)
        throw new CliUsageError(
          `--cache-verify needs a share of the cached files, from 0% to 100%, such as --cache-verify 10%${v === undefined ? "" : `: ${shown(v)} is not one`}`,
        );
      options.cacheVerify = percent;
      options.cache ??= {};
      return undefined;
    },
  },
  {
    name: "--mutate",
    merges: true,
    value: "[=json]",
    help: ["rerun each passed test with each scripted answer changed, and list", "the answers no assertion noticed (docs/mutate.md)"],
    apply: ({ inline }, options) => {
      if (inline !== undefined && inline !== "json" && inline !== "table")
        throw new CliUsageError(`--mutate takes no value, or =json: ${inline === "" ? "= with nothing after it" : `=${inline}`} is neither`);
      options.mutate = inline === "json" ? "json" : "table";
      return undefined;
    },
  },
  {
    name: "--mutate-budget",
    value: " <duration>",
    help: ["time a file's mutants may start in (default 30s)"],
    apply: ({ value }, options) => {
      const v = value();
      const rule = "--mutate-budget needs a duration such as 30s";
      if (v === undefined) throw new CliUsageError(rule);
      const ms = parseDuration(v);
      if (ms === undefined) throw new CliUsageError(`${rule}: ${parseDuration(v, true) === 0 ? `${shown(v)} leaves no time for a mutant` : notADuration(v)}`);
      options.mutateBudgetMs = ms;
      return undefined;
    },
  },
  {
    name: "--mutate-threshold",
    merges: true,
    value: " <n>",
    help: ["exit 1 when fewer mutants than this were noticed"],
    apply: ({ value }, options) => {
      const v = value();
      const rule = "--mutate-threshold needs a percent from 0 to 100";
      if (v === undefined) throw new CliUsageError(rule);
      const n = v.trim() === "" ? Number.NaN : Number(v.replace(/%$/, ""));
      if (Number.isNaN(n)) throw new CliUsageError(`${rule}: ${shown(v)} is not a number`);
      if (n < 0 || n > 100) throw new CliUsageError(`${rule}: ${shown(v)} is ${n < 0 ? "below 0" : "above 100"}`);
      options.mutateThreshold = n;
      return undefined;
    },
  },
  {
    name: "--timeline",
    merges: true,
    value: " <dir>",
    help: wrapWords("write each test's run timeline to <dir> as HTML and as Markdown with Mermaid (GitHub draws it), with an index.html", HELP_WIDTH),
    apply: ({ value }, options) => {
      const v = value();
      if (v === undefined || v === "") throw new CliUsageError("--timeline needs a folder to write the timelines to");
      options.timeline = v;
      return undefined;
    },
  },
  {
    name: "--version",
    merges: true,
    short: "-v",
    value: "",
    help: ["print Turnlens's version"],
    apply: () => "version",
  },
  {
    name: "--help",
    merges: true,
    short: "-h",
    value: "",
    help: ["print this help"],
    apply: () => "help",
  },
];

/**
 * Every long flag of `turnlens test`, for the nearest-name suggestion and the --help test: the
 * flags in --help's order, then their older names.
 */
export const FLAGS: readonly string[] = [...TEST_FLAGS.map((flag) => flag.name), ...TEST_FLAGS.flatMap((flag) => flag.olderNames ?? [])];

/** The flag `flag` (as written, before any `=`) is, by any of its names. */
export function flagNamed(flag: string): TestFlag | undefined {
  return TEST_FLAGS.find(
    (entry) => entry.name === flag || entry.short === flag || entry.olderNames?.some((name) => name === flag) || (entry.keyed && flag.startsWith(`${entry.name}.`)),
  );
}

/** The flag an argument is, before any `=`: `--flag=value` and `-t=value` alike, for every flag (Vitest's forms). */
export function flagWritten(arg: string): string {
  const equals = arg.indexOf("=");
  return equals > 1 ? arg.slice(0, equals) : arg;
}

/** `; did you mean --x?` for a misspelt flag near one of ours. */
function nearestFlag(flag: string): string {
  const nearest = flag.startsWith("--") ? suggestName(flag, FLAGS) : undefined;
  return nearest ? ` (did you mean ${nearest}?)` : "";
}

/** Parses the arguments after `test`. Throws CliUsageError. Returns "help" for -h, "version" for -v. */
export function parseTestArgs(args: string[], cwd = process.cwd()): CliOptions | FlagAction {
  const given = new Set<ConfigurableOption>();
  const options: CliOptions = {
    paths: [],
    timeoutMs: 5000,
    reporters: [],
    silent: false,
    passWithNoTests: false,
    bail: 0,
    watch: false,
    setupFiles: [],
    given,
  };
  let onlyPaths = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (onlyPaths || !arg.startsWith("-") || arg === "-") {
      options.paths.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPaths = true;
      continue;
    }
    const flag = flagWritten(arg);
    const inline = flag.length < arg.length ? arg.slice(flag.length + 1) : undefined;
    const entry = flagNamed(flag);
    if (!entry) throw new CliUsageError(`unknown option: ${flag}${nearestFlag(flag)}`, true);
    const argument: FlagArgument = {
      flag,
      arg,
      inline,
      cwd,
      value: () => {
        if (inline !== undefined) return inline;
        const next = args[i + 1];
        if (next === undefined || (next.startsWith("-") && next !== "-")) return undefined;
        i++;
        return next;
      },
      optionalValue: (accept) => {
        if (inline !== undefined) return inline;
        const next = args[i + 1];
        if (next === undefined || next.startsWith("-") || !accept(next)) return undefined;
        i++;
        return next;
      },
      noValue: () => {
        if (inline !== undefined && inline !== "true" && inline !== "false")
          throw new CliUsageError(`${flag} takes no value (or =true, =false): ${inline === "" ? "= with nothing after it" : `=${inline}`} is neither`);
        return inline !== "false";
      },
    };
    const action = entry.apply(argument, options);
    if (action !== undefined) return action;
    if (entry.sets) given.add(entry.sets);
  }
  // `--run` wins over `--watch`, as in Vitest (`vitest --run --watch` runs once).
  if (options.run) options.watch = false;
  if (options.watch && options.shard) throw new CliUsageError("--shard cannot be used with --watch");
  if (options.watch && options.bail > 0) throw new CliUsageError("--bail cannot be used with --watch");
  if (options.mutate && options.watch) throw new CliUsageError("--mutate does not run under --watch");
  return options;
}
