// Which reporters a run has and where each writes: the configured ones, plus `agent` when a coding
// agent runs the tests (std-env's detection) and `github-actions` in GitHub Actions; names, options
// and --outputFile checked (a usage error names the nearest); every call fanned out to each.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { detectAgent } from "std-env";
import { suggestName } from "../../workflow/unknownOptions.ts";
import { REPORTER_NAMES, type ReporterName } from "../../project/config.ts";
import type { FileReport, RunSummary, TestReport } from "../../execution/report.ts";
import { countLine, isConsoleReporter, type ConsoleReporter, type FileExtras, type Out, type Reporter, type RunEnd, type Sink } from "./reporter.ts";
import { canonicalReporter, FILE_BY_DEFAULT, isReporterName, REPORTERS } from "./reporterMap.ts";

/** A reporter as the command line or the config names it. */
export interface ReporterSetting {
  name: string;
  options: Record<string, unknown>;
}

// The one list of reporter names is `turnlens/config`'s, whose types give it to a config file; what
// each reporter is and does is reporterMap.ts's.
export { REPORTER_NAMES, type ReporterName };

export class ReporterUsageError extends Error {}

/** `--reporter x` for a name Turnlens has no reporter of. */
function unknownReporter(name: string): ReporterUsageError {
  const nearest = suggestName(name, REPORTER_NAMES as unknown as string[]);
  return new ReporterUsageError(`no reporter "${name}"${nearest ? `; did you mean "${nearest}"?` : ""} (reporters: ${REPORTER_NAMES.join(", ")})`);
}

function checkOptions(setting: ReporterSetting & { name: ReporterName }): void {
  const types = REPORTERS[setting.name].options;
  // Every reporter takes Vitest's `outputFile` option: its file.
  const known = [...Object.keys(types), "outputFile"];
  for (const [key, value] of Object.entries(setting.options)) {
    if (!known.includes(key)) {
      const nearest = suggestName(key, known as string[]);
      throw new ReporterUsageError(
        `the ${setting.name} reporter takes no option "${key}"${nearest ? `; did you mean "${nearest}"?` : known.length > 0 ? `; it takes ${known.join(", ")}` : "; it takes none"}`,
      );
    }
    const wanted: readonly string[] = key === "outputFile" ? ["string"] : types[key]!;
    if (!wanted.includes(typeof value))
      throw new ReporterUsageError(`the ${setting.name} reporter's "${key}" needs a ${wanted.join(" or a ")}, not ${JSON.stringify(value) ?? typeof value}`);
  }
}

/** The list given is the default one (nothing configured): the agent reporter takes its place, github-actions joins it. */
function isUnconfigured(reporters: readonly ReporterSetting[]): boolean {
  return reporters.length === 0 || (reporters.length === 1 && reporters[0]!.name === "default" && Object.keys(reporters[0]!.options).length === 0);
}

export interface Chosen extends ReporterSetting {
  name: ReporterName;
  /** Added by Turnlens, not configured: it moves to stderr rather than break a document on stdout. */
  auto: boolean;
  /** The file it writes, when --outputFile gives it one. */
  file?: string;
}

/**
 * The reporters of a run (docs/runner.md, Reporters): the configured ones, checked; with nothing
 * configured, `agent` instead of `default` when an agent runs the tests, and `github-actions`
 * beside it when GITHUB_ACTIONS=true; with reporters configured, `agent` added to them; and
 * `junit` to the file Bazel's XML_OUTPUT_FILE names.
 */
export function chooseReporters(
  configured: readonly ReporterSetting[],
  outputFile: string | Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
  shard?: { index: number; count: number },
): Chosen[] {
  const named = configured.map((setting) => {
    const { name } = setting;
    if (!isReporterName(name)) throw unknownReporter(name);
    const checked = { ...setting, name };
    checkOptions(checked);
    return checked;
  });
  const seen = new Set<ReporterName>();
  for (const setting of named) {
    const name = canonicalReporter(setting.name);
    if (seen.has(name)) throw new ReporterUsageError(`the ${setting.name} reporter is given twice`);
    seen.add(name);
  }
  const agent = detectAgent().name !== undefined;
  let chosen: Chosen[];
  if (isUnconfigured(configured)) {
    chosen = [{ name: agent ? "agent" : "default", options: {}, auto: agent }];
    if (env.GITHUB_ACTIONS === "true") chosen.push({ name: "github-actions", options: {}, auto: true });
  } else {
    chosen = named.map((setting) => ({ ...setting, auto: false }));
    if (agent && !seen.has("agent")) chosen.push({ name: "agent", options: {}, auto: true });
  }
  const names = chosen.map((setting) => setting.name);
  if (typeof outputFile === "string") {
    const takers = chosen.filter((setting) => REPORTERS[setting.name].fileByDefault);
    if (takers.length === 0) {
      const none = FILE_BY_DEFAULT.length === 2 ? "neither" : "none of them";
      // The last one first: `add --reporter junit or --reporter json`.
      const add = [...FILE_BY_DEFAULT].reverse().map((name) => `--reporter ${name}`);
      throw new ReporterUsageError(
        `--outputFile ${outputFile} is for the ${FILE_BY_DEFAULT.join(" or ")} reporter, and ${none} is chosen (${names.join(", ")}); add ${add.join(" or ")}`,
      );
    }
    if (takers.length > 1) {
      const both = FILE_BY_DEFAULT.filter((name) => takers.some((setting) => setting.name === name));
      throw new ReporterUsageError(
        `--outputFile ${outputFile} would get ${both.length === 2 ? "both " : ""}${both.join(" and ")}: give each its own, ${both.map((name) => `--outputFile.${name}=…`).join(" ")}`,
      );
    }
    takers[0]!.file = outputFile;
  } else if (outputFile) {
    for (const [name, path] of Object.entries(outputFile)) {
      if (!isReporterName(name)) throw unknownReporter(name);
      const setting = chosen.find((s) => canonicalReporter(s.name) === canonicalReporter(name));
      if (!setting) throw new ReporterUsageError(`--outputFile.${name} is for the ${name} reporter, which is not chosen (${names.join(", ")}); add --reporter ${name}`);
      setting.file = path;
    }
  }
  // Bazel names the file a test's JUnit report goes to: written there, unless junit is chosen already.
  if (env.XML_OUTPUT_FILE && !chosen.some((setting) => setting.name === "junit")) {
    chosen.push({ name: "junit", options: {}, auto: true, file: env.XML_OUTPUT_FILE });
  }
  // A reporter's own `outputFile` option wins over --outputFile, as in Vitest.
  for (const setting of chosen) {
    const own = setting.options.outputFile;
    if (typeof own === "string" && own !== "") setting.file = own;
  }
  // A reporter that never writes to the terminal (blob) gets its own file when none is given.
  for (const setting of chosen) setting.file ??= REPORTERS[setting.name].defaultFile?.(shard);
  // Two reporters on stdout are fine while both are lines for people; a document must have it alone.
  const onStdout = chosen.filter((setting) => setting.file === undefined && !setting.auto);
  const document = onStdout.find((setting) => REPORTERS[setting.name].document);
  const other = document && onStdout.find((setting) => setting !== document);
  if (document && other)
    throw new ReporterUsageError(
      `the ${document.name} reporter writes one document to stdout, which the ${other.name} reporter's output would break: give it a file (--outputFile.${document.name}=report.${REPORTERS[document.name].extension})`,
    );
  return chosen;
}

/** A file's text, written when the run ends. */
class FileSink implements Sink {
  text = "";
  constructor(readonly path: string) {}
  write(text: string): boolean {
    this.text += text;
    return true;
  }
}

function makeReporter(setting: Chosen, out: Out): Reporter {
  return REPORTERS[setting.name].make(out, setting.options);
}

interface Member {
  setting: Chosen;
  reporter: Reporter;
  sink?: FileSink;
  /** Writes to the terminal's stdout (not a file, not moved to stderr). */
  onStdout: boolean;
}

export interface GroupOptions {
  silent: boolean;
  /** stdout belongs to something else (`--coverage=json`): every reporter writes to stderr. */
  stdoutTaken?: boolean;
}

/** The chosen reporters as one: each call goes to each, the tests' output is printed once. */
export class ReporterGroup implements Reporter {
  private readonly members: Member[];
  /** The terminal reporter that prints the tests' output (it clears its progress line first). */
  private readonly printer: ConsoleReporter | undefined;
  /** A document is on stdout: the tests' stdout goes to stderr, to leave it whole. */
  readonly stdoutIsDocument: boolean;
  /** A report file could not be written: the run fails (exit 1) even when its tests passed. */
  writeFailed = false;

  constructor(
    chosen: readonly Chosen[],
    private readonly out: Out,
    private readonly options: GroupOptions,
  ) {
    const stdoutDocument = !options.stdoutTaken && chosen.some((setting) => setting.file === undefined && REPORTERS[setting.name].document);
    this.stdoutIsDocument = stdoutDocument;
    this.members = chosen.map((setting) => {
      if (setting.file !== undefined) {
        const sink = new FileSink(resolve(out.cwd, setting.file));
        return { setting, reporter: makeReporter(setting, { ...out, stdout: sink, color: false }), sink, onStdout: false };
      }
      const toStderr = options.stdoutTaken || (setting.auto && stdoutDocument && !REPORTERS[setting.name].document);
      const stream = toStderr ? out.stderr : out.stdout;
      return { setting, reporter: makeReporter(setting, { ...out, stdout: stream }), onStdout: !toStderr };
    });
    this.printer = this.members.find((member) => !member.sink && isConsoleReporter(member.reporter))?.reporter as ConsoleReporter | undefined;
  }

  /** The names, in order (for tests and the docs' examples). */
  get names(): string[] {
    return this.members.map((member) => member.setting.name);
  }

  /** Whether a reporter reads the tests' run traces (which otherwise stay in the worker). */
  get needsTraces(): boolean {
    return this.members.some((member) => REPORTERS[member.setting.name].readsTraces);
  }

  /** Whether a reporter prints fixes that name schemas (the worker then names them, as for the editor). */
  get needsSchemaNames(): boolean {
    return this.members.some((member) => REPORTERS[member.setting.name].namesSchemas);
  }

  start(fileCount: number): void {
    for (const member of this.members) member.reporter.start(fileCount);
  }
  fileStart(file: string, startedAt?: number): void {
    for (const member of this.members) member.reporter.fileStart(file, startedAt);
  }
  testEnd(file: string, test: TestReport): void {
    for (const member of this.members) member.reporter.testEnd(file, test);
  }
  fileEnd(report: FileReport, extras?: FileExtras): void {
    for (const member of this.members) member.reporter.fileEnd(report, extras);
  }

  runEnded(end: RunEnd): void {
    for (const member of this.members) member.reporter.runEnded?.(end);
  }

  output(chunk: string, stream: "stdout" | "stderr", file: string): void {
    // --silent: the tests' console output is not shown, nor kept for junit (as in Vitest).
    if (this.options.silent) return;
    for (const member of this.members) member.reporter.output?.(chunk, stream, file);
    if (this.printer) this.printer.printOutput(chunk, stream);
    // The agent reporter shows failures only: beside no terminal reporter, the tests' output is not shown.
    else if (this.members.some((member) => REPORTERS[member.setting.name].hidesTestOutput && !member.sink)) return;
    else (stream === "stderr" || this.stdoutIsDocument || this.options.stdoutTaken ? this.out.stderr : this.out.stdout).write(chunk);
  }

  finish(summary: RunSummary, durationMs: number, note?: string): void {
    // Files first, so that what the terminal shows last is the count line.
    for (const member of this.members.filter((m) => m.sink)) {
      member.reporter.finish(summary, durationMs, note);
      const sink = member.sink!;
      try {
        mkdirSync(dirname(sink.path), { recursive: true });
        writeFileSync(sink.path, sink.text);
        this.out.stderr.write(`${member.setting.name} report written to ${sink.path}\n`);
      } catch (error) {
        this.out.stderr.write(`turnlens: could not write the ${member.setting.name} report to ${sink.path}: ${(error as Error).message}\n`);
        this.writeFailed = true;
      }
    }
    const terminal = this.members.filter((m) => !m.sink);
    for (const member of terminal) member.reporter.finish(summary, durationMs, note);
    if (!terminal.some((member) => REPORTERS[member.setting.name].counts)) {
      if (note) this.out.stderr.write(`${note}\n`);
      this.out.stderr.write(`${countLine(summary)}\n`);
    }
  }
}
