// `turnlens test --changed [ref]` on a temporary git repository: a changed workflow selects the test
// file importing it (through a helper too) and not an unrelated one; a changed test file selects
// itself; `--changed <ref>` looks since that commit; outside a repository it is a usage error.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SLOW, tempProject, turnlens } from "./harness.ts";

const workflow = (name: string) => `export function ${name}(): string {\n  return "${name}";\n}\n`;
const testOf = (name: string, from: string) =>
  `import { expect, test } from "bun:test";\nimport { ${name} } from "${from}";\ntest("${name}", () => expect(${name}()).toBe("${name}"));\n`;

function repository(): { dir: string; remove(): void; git(...args: string[]): string } {
  const project = tempProject({
    "flows/billing.ts": workflow("billing"),
    "flows/shipping.ts": workflow("shipping"),
    "tests/helpers.ts": 'export { billing } from "../flows/billing.ts";\n',
    "tests/billing.test.ts": testOf("billing", "./helpers.ts"),
    "tests/shipping.test.ts": testOf("shipping", "../flows/shipping.ts"),
  });
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: project.dir,
      encoding: "utf8",
      env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" },
    });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "first");
  return { ...project, git };
}

/** The test files a run reported, by their lines. */
const ran = (stdout: string) => stdout.split("\n").filter((line) => /^[✓✗] /.test(line));

describe("--changed", () => {
  test(
    "a changed workflow selects the test file importing it through a helper, not the unrelated one",
    async () => {
      const repo = repository();
      try {
        appendFileSync(join(repo.dir, "flows/billing.ts"), "// changed\n");
        const result = await turnlens(["--changed"], repo.dir);
        expect(result.code).toBe(0);
        expect(ran(result.stdout)).toEqual(["✓ tests/billing.test.ts (1 test)"]);
      } finally {
        repo.remove();
      }
    },
    SLOW,
  );

  test(
    "nothing changed: no test runs (exit 1), and --passWithNoTests makes that 0",
    async () => {
      const repo = repository();
      try {
        const result = await turnlens(["--changed"], repo.dir);
        expect(result.code).toBe(1);
        expect(result.stdout).toContain("no test ran: no test files found changed");
        expect((await turnlens(["--changed", "--passWithNoTests"], repo.dir)).code).toBe(0);
      } finally {
        repo.remove();
      }
    },
    SLOW,
  );

  test(
    "an untracked test file is a change; --changed <ref> takes the changes since that commit, committed ones included",
    async () => {
      const repo = repository();
      try {
        writeFileSync(join(repo.dir, "tests/new.test.ts"), 'import { test } from "bun:test";\ntest("new", () => {});\n');
        expect(ran((await turnlens(["--changed"], repo.dir)).stdout)).toEqual(["✓ tests/new.test.ts (1 test)"]);
        repo.git("add", ".");
        repo.git("commit", "-qm", "second");
        appendFileSync(join(repo.dir, "flows/shipping.ts"), "// changed\n");
        repo.git("commit", "-qam", "third");
        // Since the first commit: the new test file and the shipping change.
        expect(ran((await turnlens(["--changed", "HEAD~2"], repo.dir)).stdout)).toEqual(["✓ tests/new.test.ts (1 test)", "✓ tests/shipping.test.ts (1 test)"]);
        expect(ran((await turnlens(["--changed=HEAD~1"], repo.dir)).stdout)).toEqual(["✓ tests/shipping.test.ts (1 test)"]);
      } finally {
        repo.remove();
      }
    },
    SLOW,
  );

  test(
    "a path after --changed is a path to test, not a ref; an unknown ref and a folder outside git are usage errors",
    async () => {
      const repo = repository();
      try {
        appendFileSync(join(repo.dir, "flows/billing.ts"), "// changed\n");
        appendFileSync(join(repo.dir, "flows/shipping.ts"), "// changed\n");
        expect(ran((await turnlens(["--changed", "tests/shipping.test.ts"], repo.dir)).stdout)).toEqual(["✓ tests/shipping.test.ts (1 test)"]);
        const unknown = await turnlens(["--changed", "no-such-branch"], repo.dir);
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toBe("--changed no-such-branch: git knows no commit, branch or tag of that name\n");
      } finally {
        repo.remove();
      }
      const outside = tempProject({ "one.test.ts": 'import { test } from "bun:test";\ntest("one", () => {});\n' });
      try {
        const result = await turnlens(["--changed"], outside.dir);
        expect(result.code).toBe(2);
        expect(result.stderr).toStartWith(`--changed needs a git repository: ${outside.dir} is not in one`);
      } finally {
        outside.remove();
      }
    },
    SLOW,
  );
});
