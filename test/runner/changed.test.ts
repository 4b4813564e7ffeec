// `turnlens test --changed [ref]` on a temporary git repository: a changed workflow selects the test
// file importing it (through a helper too) and not an unrelated one; a changed test file selects
// itself; `--changed <ref>` looks since that commit; outside a repository it is a usage error.
import { describe, expect } from "bun:test";
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests, DIR, type Project, runRow } from "./cliTable.ts";
import { type CliResult, ROOT } from "./harness.ts";

const workflow = (name: string) => `export function ${name}(): string {\n  return "${name}";\n}\n`;
const testOf = (name: string, from: string) =>
  `import { expect, test } from "bun:test";\nimport { ${name} } from "${from}";\ntest("${name}", () => expect(${name}()).toBe("${name}"));\n`;

/** Git in `dir`, with an author of its own. */
const git = (dir: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" },
  });

/** Two workflows, each with its test (one through a helper), committed in a fresh repository. */
const REPOSITORY: Project = {
  files: {
    "flows/billing.ts": workflow("billing"),
    "flows/shipping.ts": workflow("shipping"),
    "tests/helpers.ts": 'export { billing } from "../flows/billing.ts";\n',
    "tests/billing.test.ts": testOf("billing", "./helpers.ts"),
    "tests/shipping.test.ts": testOf("shipping", "../flows/shipping.ts"),
  },
  setup: (dir) => {
    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "first");
  },
};

/** The test files a run reported, by their lines. */
const ran = (stdout: string) => stdout.split("\n").filter((line) => /^[✓✗] /.test(line));
/** Checks a run ran exactly the files of `lines`. */
const ranExactly =
  (...lines: string[]) =>
  (result: CliResult) =>
    expect(ran(result.stdout)).toEqual(lines);
const changed =
  (...paths: string[]) =>
  (dir: string) => {
    for (const path of paths) appendFileSync(join(dir, path), "// changed\n");
  };

/** Commits everything in `dir` (the installed package left out, as a user's .gitignore does). */
const commitAll = (dir: string) => {
  writeFileSync(join(dir, ".gitignore"), "node_modules\n");
  git(dir, "init", "-q");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "first");
};

describe("--changed", () => {
  cliTests([
    {
      // init's tsconfig maps typebox and the served names to Turnlens's declarations for tsc; the
      // graph pass must take them as a run does (served), not bundle typebox's .d.mts.
      name: "after `turnlens init --example`, an untracked notes.md selects no test, though the hello workflow imports typebox",
      files: {},
      // `npm install <this clone>`: node_modules/turnlens is the built package.
      setup: (dir) => {
        mkdirSync(join(dir, "node_modules"));
        symlinkSync(ROOT, join(dir, "node_modules", "turnlens"), "dir");
      },
      steps: [
        {
          command: "init",
          args: [DIR, "--example"],
          code: 0,
          stdout: { has: ["created tsconfig.json", "created workflows/hello/workflow.test.ts"] },
          check: (_result, dir) =>
            expect(readFileSync(join(dir, "tsconfig.json"), "utf8")).toContain(
              '"typebox": ["./node_modules/turnlens/dist/types/node_modules/typebox/build/index.d.mts"]',
            ),
        },
        {
          before: (dir) => {
            commitAll(dir);
            writeFileSync(join(dir, "notes.md"), "# notes\n");
          },
          args: ["--changed"],
          code: 1,
          stdout: { has: ["no test ran: no test files found changed"] },
        },
        // The same tests run in full, and a change to the workflow selects its test.
        { args: [], code: 0, check: ranExactly("✓ workflows/hello/workflow.test.ts (2 tests)") },
        { before: changed("workflows/hello/workflow.ts"), args: ["--changed"], code: 0, check: ranExactly("✓ workflows/hello/workflow.test.ts (2 tests)") },
      ],
    },
    {
      name: "a changed workflow selects the test file importing it through a helper, not the unrelated one",
      ...REPOSITORY,
      before: changed("flows/billing.ts"),
      args: ["--changed"],
      code: 0,
      check: ranExactly("✓ tests/billing.test.ts (1 test)"),
    },
    {
      name: "nothing changed: no test runs (exit 1), and --passWithNoTests makes that 0",
      ...REPOSITORY,
      steps: [
        { args: ["--changed"], code: 1, stdout: { has: ["no test ran: no test files found changed"] } },
        { args: ["--changed", "--passWithNoTests"], code: 0 },
      ],
    },
    {
      name: "an untracked test file is a change; --changed <ref> takes the changes since that commit, committed ones included",
      ...REPOSITORY,
      steps: [
        {
          before: (dir) => writeFileSync(join(dir, "tests/new.test.ts"), 'import { test } from "bun:test";\ntest("new", () => {});\n'),
          args: ["--changed"],
          code: 0,
          check: ranExactly("✓ tests/new.test.ts (1 test)"),
        },
        {
          before: (dir) => {
            git(dir, "add", ".");
            git(dir, "commit", "-qm", "second");
            changed("flows/shipping.ts")(dir);
            git(dir, "commit", "-qam", "third");
          },
          // Since the first commit: the new test file and the shipping change.
          args: ["--changed", "HEAD~2"],
          code: 0,
          check: ranExactly("✓ tests/new.test.ts (1 test)", "✓ tests/shipping.test.ts (1 test)"),
        },
        { args: ["--changed=HEAD~1"], code: 0, check: ranExactly("✓ tests/shipping.test.ts (1 test)") },
      ],
    },
    {
      name: "a path after --changed is a path to test, not a ref; an unknown ref and a folder outside git are usage errors",
      ...REPOSITORY,
      steps: [
        {
          before: changed("flows/billing.ts", "flows/shipping.ts"),
          args: ["--changed", "tests/shipping.test.ts"],
          code: 0,
          check: ranExactly("✓ tests/shipping.test.ts (1 test)"),
        },
        {
          args: ["--changed", "no-such-branch"],
          code: 2,
          stderr: "--changed no-such-branch: git knows no commit, branch or tag of that name\n",
          // And in another fresh folder, outside any repository.
          check: () =>
            runRow({
              files: { "one.test.ts": 'import { test } from "bun:test";\ntest("one", () => {});\n' },
              args: ["--changed"],
              code: 2,
              stderr: { startsWith: `--changed needs a git repository: ${DIR} is not in one` },
            }).then(() => undefined),
        },
      ],
    },
  ]);
});
