// `turnlens test --watch` (docs/runner.md, Watch): one run, then each settled batch of changes
// reruns the test files it affects, picks up new test files and drops deleted ones, until Ctrl-C.
import { existsSync, fstatSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { JobResult } from "../execution/pool.ts";
import type { ProjectConfig } from "../project/configFile.ts";
import { isTestFile } from "../project/discover.ts";
import { listed } from "./runOutput.ts";
import type { CliOptions } from "./testOptions.ts";
import { exitCodeOf, runOnce, selectFiles } from "./testRun.ts";
import { FolderWatcher } from "./watchFolders.ts";
import { TestGraph } from "./watchGraph.ts";
import { RerunLoopGuard } from "./watchLoop.ts";

/** Files whose change alters how every test file bundles: every test file reruns. */
const BUNDLE_SETTINGS = /^(tsconfig.*\.json|jsconfig\.json|package\.json|turnlens\.config\.[cm]?[jt]s|turnlens\.config\.json)$/;

/**
 * What the file's run read, for the watch graph: undefined (rerun on any change) when it did not
 * get as far as its tests, since a bundle that failed read only part of what the file needs (a
 * missing import the user is about to write is in no list).
 */
function inputsOf(result: JobResult): readonly string[] | undefined {
  if (result.report.error && result.report.tests.length === 0) return undefined;
  return result.inputs;
}

/** Why a test file in the watched folders is none of the run's: the paths given, the config's include, else an exclude. */
function whyLeftOut(file: string, options: CliOptions, config: ProjectConfig | undefined, cwd: string): string {
  const within = (folder: string) => {
    const rel = relative(folder, file);
    return rel === "" || !(rel.startsWith("..") || isAbsolute(rel));
  };
  if (options.paths.length > 0 && !options.paths.some((path) => within(resolve(cwd, path)))) return `outside the paths being watched (${options.paths.join(", ")})`;
  if (options.paths.length === 0 && config?.include && config.include.length > 0 && !config.include.some((path) => within(resolve(config.root, path))))
    return `outside the config's include (${config.include.join(", ")})`;
  return "left out of the run (node_modules, dist, dot-folders and the config's exclude are)";
}

/**
 * `--watch` (docs/runner.md, Watch): one run, then each settled batch of changes reruns the test
 * files whose last bundle read a changed file (watchGraph.ts), picks up new test files and drops
 * deleted ones. Folders are watched so that files saved by rename stay watched (watchFolders.ts).
 */
export async function watchMode(options: CliOptions): Promise<number> {
  const controller = new AbortController();
  const cwd = process.cwd();
  const shown = (path: string) => {
    const rel = relative(cwd, path);
    return rel === "" || rel.startsWith("..") ? path : rel;
  };
  // Output sent to a file inside the project changes with each run: it is not a change to rerun for.
  const outputFiles = [1, 2].flatMap((fd) => {
    try {
      const stats = fstatSync(fd);
      return stats.isFile() ? [`${stats.dev}:${stats.ino}`] : [];
    } catch {
      return []; // closed
    }
  });
  const ownOutput = (path: string) => {
    if (outputFiles.length === 0) return false;
    const stats = statSync(path, { throwIfNoEntry: false });
    return stats !== undefined && outputFiles.includes(`${stats.dev}:${stats.ino}`);
  };
  const first = await selectFiles(options);
  const loopGuard = new RerunLoopGuard(shown);
  const graph = new TestGraph();
  graph.setFiles(first.files);
  let stopping = false;
  const queued: string[] = [];
  let draining: Promise<void> | undefined;

  const watcher = new FolderWatcher({
    onBatch: (paths) => {
      queued.push(...paths);
      draining ??= drain().finally(() => (draining = undefined));
    },
    log: (message) => process.stderr.write(`turnlens: ${message}\n`),
  });
  // The project (its config's folder, else the current one), the searched folders, the named files' folders.
  watcher.add(first.config?.root ?? cwd);
  for (const dir of first.dirs) watcher.add(dir);
  for (const file of first.files) watcher.add(dirname(file));

  const run = async (files: string[]) => {
    loopGuard.runStarted(files);
    const { summary } = await runOnce(files, options, controller.signal, (file, result) => graph.record(file, inputsOf(result))).finally(() => loopGuard.runEnded());
    // An input outside the watched folders (a sibling package) is watched from now on.
    for (const input of graph.allInputs()) {
      if (!input.split(sep).includes("node_modules") && !watcher.covers(dirname(input))) watcher.add(dirname(input));
    }
    if (!stopping) process.stderr.write(`\nwatching for changes (${exitCodeOf(summary, options) === 0 ? "all passed" : "some failed"}); press Ctrl-C to exit\n`);
  };

  const rerunFor = async (changed: string[]) => {
    let added: string[] = [];
    let removed: string[] = [];
    // A deleted path may have been a folder of test files: look for the test files again then too.
    if (changed.some((path) => isTestFile(path) || BUNDLE_SETTINGS.test(basename(path)) || (!existsSync(path) && graph.reads(path)))) {
      try {
        ({ added, removed } = graph.setFiles((await selectFiles(options)).files));
      } catch (error) {
        process.stderr.write(`${(error as Error).message}\n`);
        return;
      }
    }
    const lines: string[] = [];
    if (removed.length > 0) lines.push(`dropped ${listed(removed.map(shown))}: ${removed.every((file) => !existsSync(file)) ? "deleted" : "no longer included"}`);
    if (added.length > 0) lines.push(`new test file${added.length > 1 ? "s" : ""} ${listed(added.map(shown))}: running ${added.length > 1 ? "them" : "it"}`);
    // A path gone again that no test read was an editor's scratch file (sed -i's, say).
    const handled = new Set([...added, ...removed]);
    const candidates = changed.filter((path) => !handled.has(path) && !ownOutput(path) && (existsSync(path) || graph.reads(path)));
    // A file the last run wrote, run after run, is the run's own doing (watchLoop.ts).
    const verdict = loopGuard.judge(candidates.filter((path) => graph.reads(path)));
    lines.push(...verdict.lines);
    const relevant = candidates.filter((path) => !graph.reads(path) || verdict.rerunFor.includes(path));
    const settings = relevant.some((path) => BUNDLE_SETTINGS.test(basename(path)));
    const affected = (settings ? graph.files : graph.affected(relevant)).filter((file) => !added.includes(file));
    // A test file the selection leaves out (outside the paths given or the config's include, or
    // excluded) is not "imported by no test": it is not one of this watch's test files.
    const leftOut = relevant.filter((path) => isTestFile(path) && !graph.reads(path) && !graph.files.includes(path));
    for (const path of leftOut) lines.push(`changed ${shown(path)}: a test file ${whyLeftOut(path, options, first.config, cwd)}, not running it`);
    const unread = relevant.filter((path) => !leftOut.includes(path));
    const names = listed(unread.map(shown));
    // With a new test file running, whose graph is not known yet, a file no other test reads may well be its.
    if (unread.length > 0 && affected.length === 0 && added.length === 0)
      lines.push(`changed ${names}: no test imports ${unread.length > 1 ? "them" : "it"}, nothing to rerun`);
    else if (unread.length > 0 && affected.length > 0) lines.push(`changed ${names}: rerunning ${listed(affected.map(shown))}`);
    const files = graph.files.filter((file) => affected.includes(file) || added.includes(file));
    if (lines.length > 0) process.stdout.write(`\n${lines.join("\n")}\n`);
    if (files.length > 0 && !stopping) await run(files);
  };

  // One batch at a time: changes during a run wait for it and make one rerun together.
  const drain = async () => {
    while (queued.length > 0 && !stopping) {
      try {
        await rerunFor([...new Set(queued.splice(0))]);
      } catch (error) {
        // A rerun that went wrong is reported; the watch goes on for the next change.
        process.stderr.write(`turnlens: ${(error as Error).stack ?? String(error)}\n`);
      }
    }
  };

  draining = run(first.files)
    .then(drain)
    .finally(() => (draining = undefined));

  return new Promise<number>((resolveExit) => {
    process.once("SIGINT", () => {
      stopping = true;
      controller.abort();
      watcher.close();
      resolveExit(130);
      setImmediate(() => process.exit(130));
    });
  });
}
