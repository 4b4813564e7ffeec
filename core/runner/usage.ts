// `turnlens --help` and `turnlens test --help`: the text around the options, and the options'
// lines built from testFlags.ts's table (a name column, then each flag's help lines).
import { TEST_FLAGS, type TestFlag } from "./testFlags.ts";

/** Where the help text starts: the flags' column and the space after it. */
const NAME_COLUMN = 34;

/** A flag's lines: `  -t, --testNamePattern <regex>   run only…`, its further lines under the first. */
function flagLines(flag: TestFlag): string[] {
  const names = `  ${flag.short ? `${flag.short}, ` : "    "}${flag.name}${flag.value}`;
  return flag.help.map((line, index) => (index === 0 ? `${names.padEnd(NAME_COLUMN - 1)} ${line}` : `${" ".repeat(NAME_COLUMN)}${line}`));
}

/** `  --test-name-pattern and --timeout are the older names of -t and --testTimeout.` */
function olderNamesLine(): string {
  const renamed = TEST_FLAGS.filter((flag) => flag.olderNames !== undefined && flag.olderNames.length > 0);
  const older = renamed.flatMap((flag) => flag.olderNames ?? []);
  return `  ${older.join(" and ")} are the older names of ${renamed.map((flag) => flag.short ?? flag.name).join(" and ")}.`;
}

export const USAGE = `Usage: turnlens test [paths...] [options]

Runs *.test.ts and *.spec.ts files (also .mts .cts .tsx .js .mjs .cjs .jsx), each in a
worker process. Paths are files or folders (searched recursively, skipping node_modules,
dist and dot-folders). Without paths: the "include" list of the project's config
(turnlens.config.ts, .mts, .js, .mjs or .json, or the "turnlens" key of package.json),
else the current folder. Test files import "bun:test" or "vitest" and "agentswf/testing";
Turnlens serves those itself. Flags win over the config file.

Options:
${[...TEST_FLAGS.flatMap(flagLines), olderNamesLine()].join("\n")}

Exit code: 0 when all tests pass, 1 when a test failed or no test ran (0 with
--passWithNoTests), 2 on a usage or config error, 130 when interrupted (Ctrl-C).

turnlens --version (or -v) prints Turnlens's version.

turnlens init [folder] [--example] sets a folder up: tsconfig paths for the served modules and,
in a folder with no workflow, a first workflow and its test (turnlens init --help).

turnlens merge-reports [dir] [--reporter …] [--coverage] [--timeline <dir>] [--durations <file>]
[--mutate] merges the blob reports (--reporter blob) of a run's shards into one report, as one
run would have printed it; dir is .turnlens-reports by default (docs/ci.md).

turnlens record <run folder> --workflow <file> [--check] writes a test that replays a run from
its run.jsonl and in.jsonl, or checks the run still replays (turnlens record --help).

turnlens lsp --stdio (or --node-ipc) starts the language server for an editor: the tests of the
open files run as you type (turnlens lsp --help).`;
