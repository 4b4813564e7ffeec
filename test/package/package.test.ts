// Turnlens as a user gets it: the `npm pack` tarball installed with TypeScript into a fresh folder
// in the OS temp dir (installedProject.ts), then the README's path there: `npx turnlens init
// --example`, `npx turnlens test`, `npx tsc --noEmit`; every doc link resolving in the install; Neovim and Emacs/eglot served by
// `npx turnlens lsp --stdio` there (editors/); and the same project moved to another path.
// The editors are skipped only when missing outside CI; in CI (`CI` set) a missing one fails.
import { afterAll, expect, test } from "bun:test";
import { isAscii } from "node:buffer";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { INSTALL_TIMEOUT, installedProject, packedTarball, removeTarball, ROOT, runIn, type InstalledProject, type RunResult } from "./installedProject.ts";

// One installed project for the whole file, in order: init, test, tsc, then the move.
let installing: Promise<InstalledProject> | undefined;
const project = (): Promise<InstalledProject> => (installing ??= installedProject());
afterAll(async () => {
  // The move test removes the project; this is for a run that stopped earlier (or ran a few tests with -t).
  const made = await installing?.catch(() => undefined);
  made?.remove();
  removeTarball();
});

const TEST_FILE = join("workflows", "hello", "workflow.test.ts");
const RIGHT_ANSWER = 'answer(GREETING, { greeting: "Hello, Ada!" })';

/** What a user's tarball may hold: the command, dist's modules, the server, the declarations, the docs. */
const SHIPPED = [
  /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|ARCHITECTURE\.md|BENCHMARKS\.md|CONTRIBUTING\.md)$/,
  /^docs\/[\w-]+\.md$/,
  /^docs\/images\/[\w-]+\.png$/,
  /^bin\/turnlens\.mjs$/,
  /^dist\/(cli|worker|workflow|testing|client|trace|config|vitest|vitest-bun-test)\.mjs$/,
  /^dist\/vitest\.d\.mts$/,
  /^dist\/served\/typebox(-\w+)?\.mjs$/,
  /^dist\/chunks\/[\w.-]+\.mjs$/,
  /^dist\/(server|serverMain|serverTypescript|workerMain|cliMain)\.js$/,
  /^dist\/configProcess\.mjs$/,
  /^dist\/types\/.+\.d\.[cm]?ts$/,
  /^dist\/types\/node_modules\/.+\/(package\.json|licen[sc]e(\.md|\.txt)?|LICEN[SC]E(\.md|\.txt)?)$/,
];

test(
  "npm pack ships the command, the CLI and its worker, the public modules, the language server and the declarations, and nothing else",
  async () => {
    const tarball = await packedTarball();
    console.log(`tarball ${tarball.path.split("/").at(-1)}: ${tarball.size} bytes packed, ${tarball.unpackedSize} unpacked, ${tarball.files.length} files`);
    expect(tarball.files.filter((file) => !SHIPPED.some((pattern) => pattern.test(file)))).toEqual([]);
    for (const needed of [
      "bin/turnlens.mjs",
      "dist/cli.mjs",
      "dist/cliMain.js",
      "dist/worker.mjs",
      "dist/server.js",
      "dist/configProcess.mjs",
      "dist/testing.mjs",
      "dist/types/agentswf/testing.d.ts",
      "dist/types/turnlens/testing.d.ts",
      "dist/types/node_modules/typebox/build/index.d.mts",
      "README.md",
      "LICENSE",
      "docs/language-server.md",
      "docs/runner.md",
    ]) {
      expect(tarball.files).toContain(needed);
    }
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    // dist/ bundles everything it uses but esbuild, whose native binary cannot be bundled, and the
    // coverage reports' istanbul packages (istanbul-reports loads its reporters by name and reads its
    // html assets from its own folder).
    expect(Object.keys(manifest.dependencies as object)).toEqual(["esbuild", "istanbul-lib-coverage", "istanbul-lib-report", "istanbul-reports"]);
    expect(manifest.scripts).toMatchObject({ prepack: "node build.mjs" });
  },
  INSTALL_TIMEOUT,
);

test(
  "in a fresh folder with the tarball and typescript installed, init --example, turnlens test and tsc pass, and init writes no absolute path",
  async () => {
    const { dir, run } = await project();
    // An install, not a link to this repository.
    expect(lstatSync(join(dir, "node_modules", "turnlens")).isSymbolicLink()).toBe(false);
    expect(existsSync(join(dir, "node_modules", "turnlens", "core"))).toBe(false);

    const init = await run("npx", ["turnlens", "init", "--example"]);
    expect(init.stdout).toBe("created tsconfig.json\ncreated workflows/hello/workflow.ts\ncreated workflows/hello/workflow.test.ts\nnext: turnlens test\n");
    expect(init.code).toBe(0);
    const written = init.stdout
      .split("\n")
      .filter((line) => line.startsWith("created "))
      .map((line) => line.slice("created ".length));
    for (const file of written) {
      const text = readFileSync(join(dir, file), "utf8");
      for (const absolute of [dir, realpathSync(dir), ROOT, tmpdir()])
        expect({ file, holds: text.includes(absolute) ? absolute : "no absolute path" }).toEqual({ file, holds: "no absolute path" });
    }
    const paths = (JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
    expect(
      Object.values(paths)
        .flat()
        .filter((path) => !path.startsWith("./node_modules/turnlens/dist/types/")),
    ).toEqual([]);

    const tests = await run("npx", ["turnlens", "test"]);
    expect(tests.lastLine).toBe("2 passed, 0 failed");
    expect(tests.code).toBe(0);

    const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
    expect(tsc.stdout).toBe("");
    expect(tsc.code).toBe(0);
  },
  INSTALL_TIMEOUT,
);

test(
  "a test file written for Vitest (a module mock, snapshots, fake timers, test.for, test.fails) passes turnlens test and tsc with init's tsconfig",
  async () => {
    const { dir, run } = await project();
    const folder = join(dir, "vitestApi");
    mkdirSync(folder, { recursive: true });
    try {
      writeFileSync(join(folder, "greeting.ts"), "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n");
      writeFileSync(
        join(folder, "greeting.test.ts"),
        [
          'import { describe, expect, test, vi } from "vitest";',
          'import { greet } from "./greeting";',
          "",
          'vi.mock("./greeting", () => ({ greet: (name: string) => `Hi, ${name}.` }));',
          "",
          'describe("a Vitest file", () => {',
          '  test("sees the mocked module", () => expect(greet("Ada")).toBe("Hi, Ada."));',
          '  test("writes a snapshot", () => expect({ name: "Ada", turns: [1, 2] }).toMatchSnapshot());',
          '  test("writes an inline snapshot", () => expect(greet("Ada")).toMatchInlineSnapshot());',
          '  test("advances fake timers", () => {',
          "    vi.useFakeTimers();",
          "    let fired = 0;",
          "    setTimeout(() => fired++, 1000);",
          "    vi.advanceTimersByTime(1000);",
          "    vi.useRealTimers();",
          "    expect(fired).toBe(1);",
          "  });",
          '  test.fails("fails as it should", () => expect(1).toBe(2));',
          '  test.for([[1, 2], [2, 3]])("adds one to %i", ([a, b]) => expect(a! + 1).toBe(b));',
          "});",
          "",
        ].join("\n"),
      );
      // Not as a CI run, which writes no snapshot (a missing one fails there, as under Vitest).
      const tests = await run("npx", ["turnlens", "test", "vitestApi"], { env: { CI: "" } });
      expect([tests.lastLine, tests.code]).toEqual(["7 passed, 0 failed", 0]);
      expect(readFileSync(join(folder, "__snapshots__", "greeting.test.ts.snap"), "utf8")).toContain("exports[`a Vitest file > writes a snapshot 1`]");
      expect(readFileSync(join(folder, "greeting.test.ts"), "utf8")).toContain('toMatchInlineSnapshot(`"Hi, Ada."`)');
      const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
      expect(tsc.stdout).toBe("");
      expect(tsc.code).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
  INSTALL_TIMEOUT,
);

test(
  "after init, `turnlens test --changed` runs nothing when only an unrelated file changed, though the hello test imports typebox, and runs it once its workflow changed",
  async () => {
    const { dir, run } = await project();
    const git = (...args: string[]) => run("git", ["-c", "user.email=test@example.com", "-c", "user.name=test", ...args]);
    const workflow = join(dir, "workflows", "hello", "workflow.ts");
    const original = readFileSync(workflow, "utf8");
    writeFileSync(join(dir, ".gitignore"), "node_modules\n");
    try {
      for (const args of [
        ["init", "-q"],
        ["add", "-A"],
        ["commit", "-qm", "init"],
      ])
        expect((await git(...args)).code).toBe(0);
      writeFileSync(join(dir, "notes.md"), "an unrelated change\n");
      const unrelated = await run("npx", ["turnlens", "test", "--changed"]);
      expect(unrelated.stdout).toMatch(/^0 files in [\d.]+s\nno test ran: no test files found changed; --passWithNoTests exits 0 then\n0 passed, 0 failed\n$/);
      writeFileSync(workflow, `${original}// changed\n`);
      const related = await run("npx", ["turnlens", "test", "--changed"]);
      expect(related.lastLine).toBe("2 passed, 0 failed");
    } finally {
      writeFileSync(workflow, original);
      for (const made of [".git", ".gitignore", "notes.md"]) rmSync(join(dir, made), { recursive: true, force: true });
    }
  },
  INSTALL_TIMEOUT,
);

test(
  "tsc fails at the property once a scripted answer has the wrong type",
  async () => {
    const { dir, run } = await project();
    const file = join(dir, TEST_FILE);
    const text = readFileSync(file, "utf8");
    expect(text).toContain(RIGHT_ANSWER);
    writeFileSync(file, text.replace(RIGHT_ANSWER, "answer(GREETING, { greeting: 3 })"));
    try {
      const tsc = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
      expect(tsc.code).toBe(2);
      const [, where, line, column] = /^(workflows\/hello\/workflow\.test\.ts)\((\d+),(\d+)\): error TS2322: Type 'number' is not assignable to type 'string'\.$/.exec(
        tsc.stdout.trim(),
      ) ?? ["", tsc.stdout];
      expect(where).toBe("workflows/hello/workflow.test.ts");
      // The error is at the property, `greeting`.
      expect(
        readFileSync(file, "utf8")
          .split("\n")
          [Number(line) - 1]!.slice(Number(column) - 1),
      ).toStartWith("greeting: 3 })");
    } finally {
      writeFileSync(file, text);
    }
  },
  INSTALL_TIMEOUT,
);

test("docs/package.md's size figures are the packed tarball's, within 10%", async () => {
  const tarball = await packedTarball();
  const page = readFileSync(join(ROOT, "docs", "package.md"), "utf8").replace(/\s+/g, " ");
  const [, packed, unpacked, files] = /About ([\d.]+) MB packed and ([\d.]+) MB unpacked, about (\d+) files/.exec(page) ?? [];
  const stated = { packed: Number(packed) * 1e6, unpacked: Number(unpacked) * 1e6, files: Number(files) };
  const actual = { packed: tarball.size, unpacked: tarball.unpackedSize, files: tarball.files.length };
  const within = (figure: number, real: number) => (Math.abs(figure - real) <= real * 0.1 ? "within 10%" : `${figure}, but the pack has ${real}`);
  expect({ packed: within(stated.packed, actual.packed), unpacked: within(stated.unpacked, actual.unpacked), files: within(stated.files, actual.files) }).toEqual({
    packed: "within 10%",
    unpacked: "within 10%",
    files: "within 10%",
  });
});

test(
  "in the installed package, the bundles started through the V8 code cache are ASCII, so each start copies them as Latin-1 instead of decoding UTF-8",
  async () => {
    const { dir } = await project();
    const bundles = ["workerMain", "cliMain", "serverMain", "serverTypescript"].map((name) => join(dir, "node_modules", "turnlens", "dist", `${name}.js`));
    // core/execution/codeCache.ts: a file with one other byte is read as UTF-8, into a two-byte string.
    expect(bundles.filter((bundle) => !isAscii(readFileSync(bundle))).map((bundle) => relative(dir, bundle))).toEqual([]);
  },
  INSTALL_TIMEOUT,
);

/** The local targets of a markdown page's links and images (`[…](target)`), without their `#anchor`; web links and bare anchors left out. */
function linkTargets(markdown: string): string[] {
  const targets = [...markdown.matchAll(/!?\[[^\]]*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
  return targets.filter((target) => !/^[a-z][\w+.-]*:/i.test(target) && !target.startsWith("#")).map((target) => decodeURIComponent(target.replace(/#.*$/, "")));
}

/** The pages a command's help names: `docs/….md` and any other `….md` path. */
function namedPages(help: string): string[] {
  return [...help.matchAll(/(?<![\w/.-])((?:[\w-]+\/)*[\w-]+\.md)\b/g)].map((match) => match[1]!);
}

test(
  "in the installed package, every link of the README and its pages, and every page each command's --help names, is a file of node_modules/turnlens",
  async () => {
    const { dir, run } = await project();
    const installed = join(dir, "node_modules", "turnlens");
    const missing: string[] = [];
    const check = (from: string, target: string, base: string) => {
      const path = resolve(base, target);
      const inside = path.startsWith(`${installed}/`);
      if (!inside || !existsSync(path) || !statSync(path).isFile()) missing.push(`${from} → ${target}`);
    };
    // The README and every page it leads to, followed link by link.
    const pages = ["README.md"];
    for (const page of pages) {
      const text = readFileSync(join(installed, page), "utf8");
      for (const target of linkTargets(text)) {
        check(page, target, dirname(join(installed, page)));
        const linked = relative(installed, resolve(dirname(join(installed, page)), target));
        if (linked.endsWith(".md") && !pages.includes(linked) && existsSync(join(installed, linked))) pages.push(linked);
      }
      // A page named in the README's text, not only in its links (CONTRIBUTING.md).
      if (page === "README.md") for (const named of namedPages(text)) check(page, named, installed);
    }
    // Every command's help, as the top-level help lists them (`turnlens <command> --help`).
    const top = await run("npx", ["turnlens", "--help"]);
    const commands = [...new Set([...top.stdout.matchAll(/\(turnlens (\w+) --help\)/g)].map((match) => match[1]!))];
    expect(commands).toEqual(expect.arrayContaining(["init", "record", "lsp"]));
    const helps = [["--help"], ["test", "--help"], ...commands.map((command) => [command, "--help"])];
    const named: string[] = [];
    for (const args of helps) {
      const help = await run("npx", ["turnlens", ...args]);
      expect({ args, code: help.code }).toEqual({ args, code: 0 });
      for (const page of namedPages(help.stdout)) {
        named.push(page);
        check(`turnlens ${args.join(" ")}`, page, installed);
      }
    }
    expect(missing).toEqual([]);
    // The README leads to every page of docs/, and the helps name the three pages they send users to.
    expect(pages.filter((page) => page.startsWith("docs/")).sort()).toEqual(
      readdirSync(join(ROOT, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`)
        .sort(),
    );
    expect(named).toEqual(expect.arrayContaining(["docs/runner.md", "docs/mutate.md", "docs/language-server.md"]));
  },
  INSTALL_TIMEOUT,
);

test(
  "the installed package's own names resolve: turnlens/testing's types from the package's exports, its module in Node",
  async () => {
    const { dir, run } = await project();
    // No paths: tsc finds turnlens/testing through node_modules/turnlens/package.json's exports alone.
    writeFileSync(
      join(dir, "tsconfig.exports.json"),
      `${JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", strict: true, skipLibCheck: true, noEmit: true, types: [] }, files: ["uses-exports.mts"] }, null, 2)}\n`,
    );
    writeFileSync(
      join(dir, "uses-exports.mts"),
      'import { answer, noAnswer } from "turnlens/testing";\nimport type { RunTrace } from "turnlens/trace";\nexport const entries = [answer({ type: "object" }, { any: 1 }), noAnswer.silent()];\nexport type Trace = RunTrace;\n',
    );
    const tsc = await run("npx", ["tsc", "-p", "tsconfig.exports.json", "--pretty", "false"]);
    expect(tsc.stdout).toBe("");
    expect(tsc.code).toBe(0);
    const node = await run("node", [
      "--input-type=module",
      "-e",
      'const w = await import("turnlens/workflow"); const t = await import("turnlens/testing"); console.log(typeof w.defineWorkflow, typeof t.testWorkflow)',
    ]);
    expect(node.stdout).toBe("function function\n");
  },
  INSTALL_TIMEOUT,
);

const RELEASE_WORKFLOW = `import { defineWorkflow, score, yesNo } from "agentswf/workflow";

export const QUESTIONS = {
  risk: score("How risky is this release?", ["low", "medium", "high"]),
  ship: yesNo("Ship it now?"),
};

export default defineWorkflow({
  name: "release",
  description: "Ships a release when a decision says it is safe.",
  async run(wf) {
    const { answers } = await wf.decide({ key: "release-1", questions: QUESTIONS });
    return answers.ship.yes && answers.risk.level < 2 ? "shipped" : "held";
  },
});
`;
const RELEASE_TEST = (risk: string) => `import { expect, test } from "bun:test";
import { answersTo, testWorkflow } from "agentswf/testing";
import release, { QUESTIONS } from "./workflow";

test("a safe release ships", async () => {
  const run = await testWorkflow(release, { decisions: { "release-*": answersTo(QUESTIONS, { risk: ${risk}, ship: true }) } });
  expect(run.value).toBe("shipped");
});
`;

test(
  "with init's tsconfig, tsc refuses a decision answered with the wrong kind (a score given a level's name) at the answer, and accepts the level's index",
  async () => {
    const { dir, run } = await project();
    const folder = join(dir, "workflows", "release");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "workflow.ts"), RELEASE_WORKFLOW);
    const file = join(folder, "workflow.test.ts");
    try {
      writeFileSync(file, RELEASE_TEST('"high"'));
      const wrong = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
      const [, line, column, message] = /^workflows\/release\/workflow\.test\.ts\((\d+),(\d+)\): error (TS\d+: .*)$/m.exec(wrong.stdout) ?? ["", "0", "0", wrong.stdout];
      // A level index (0, 1 or 2) or a probability per level; TypeScript orders the indexes its own way.
      expect(message).toMatch(/^TS2322: Type 'string' is not assignable to type '[012] \| [012] \| [012] \| \[number, number, number\] \| undefined'\.$/);
      expect(
        readFileSync(file, "utf8")
          .split("\n")
          [Number(line) - 1]!.slice(Number(column) - 1),
      ).toStartWith('risk: "high"');
      expect(wrong.code).toBe(2);
      // The run refuses it too, in its own words.
      const failed = await run("npx", ["turnlens", "test", "workflows/release"]);
      expect(failed.stdout).toContain('decision "release-1": "risk" is a score question; its script answers "high"');

      writeFileSync(file, RELEASE_TEST("1"));
      const right = await run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
      expect({ code: right.code, stdout: right.stdout }).toEqual({ code: 0, stdout: "" });
      const passed = await run("npx", ["turnlens", "test", "workflows/release"]);
      expect(passed.lastLine).toBe("1 passed, 0 failed");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
  INSTALL_TIMEOUT,
);

// ---------------------------------------------------------------------------------------------
// Editors: the project's own language server, `npx turnlens lsp --stdio`, started as
// docs/language-server.md configures each editor.

const EDITOR_TEST_FILE = join("workflows", "hello", "editor.test.ts");
const EDITOR_TEST = `// Two mistakes for an editor to show: a misspelled option, and an answer no turn reaches.
import { test } from "bun:test";
import { answer, testWorkflow } from "agentswf/testing";
import hello, { GREETING } from "./workflow";

test("a misspelled option", async () => {
  await testWorkflow(hello, {
    args: { name: "Ada" },
    // @ts-expect-error -- tsc refuses the name too
    agnets: { greeter: answer(GREETING, { greeting: "Hello, Ada!" }) },
  });
});

test("a second answer no turn reaches", async () => {
  await testWorkflow(hello, {
    args: { name: "Ada" },
    agents: { greeter: [answer(GREETING, { greeting: "Hello, Ada!" }), answer(GREETING, { greeting: "Hello again" })] },
  });
});
`;
const EDITORS = fileURLToPath(new URL("./editors/", import.meta.url));
const inCi = Boolean(process.env.CI);
const hasNvim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).error === undefined;
const EGLOT = `(progn (setq package-directory-list '("/usr/share/emacs/site-lisp/elpa")) (package-initialize) (require 'eglot))`;
const hasEglot = spawnSync("emacs", ["--batch", "-Q", "--eval", EGLOT], { stdio: "ignore", env: { ...process.env, HOME: tmpdir() } }).status === 0;

/** Runs an editor's check on the editor test file in the installed project, with its home and XDG dirs in a temp folder. */
async function editorCheck(command: string, args: (scratch: string) => string[]): Promise<RunResult & { line(pattern: RegExp): string }> {
  const { dir } = await project();
  writeFileSync(join(dir, EDITOR_TEST_FILE), EDITOR_TEST);
  const scratch = mkdtempSync(join(tmpdir(), "turnlens-editor-"));
  try {
    const env = {
      HOME: scratch,
      XDG_CONFIG_HOME: scratch,
      XDG_DATA_HOME: scratch,
      XDG_CACHE_HOME: scratch,
      XDG_STATE_HOME: scratch,
      TURNLENS_PROJECT: dir,
      TURNLENS_FILE: join(dir, EDITOR_TEST_FILE),
    };
    const result = await runIn(dir, command, args(scratch), { env });
    const context = `${command} exited ${result.code}\n--- stdout\n${result.stdout}--- stderr\n${result.stderr}`;
    const lines = result.stdout.split("\n");
    return { ...result, line: (pattern) => lines.find((l) => pattern.test(l)) ?? `(no line matching ${pattern} in:\n${context})` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(join(dir, EDITOR_TEST_FILE), { force: true });
  }
}

/** The lines between a driver's `>>> docs` and `<<< docs` markers: the configuration it runs. */
function documentedBlock(driver: string): string {
  const text = readFileSync(join(EDITORS, driver), "utf8");
  const start = text.indexOf("\n", text.indexOf(">>> docs/language-server.md")) + 1;
  const end = text.lastIndexOf("\n", text.indexOf("<<< docs")) + 1;
  return text.slice(start, end);
}

test("docs/language-server.md holds the Neovim 0.7 and eglot configurations the editor checks run", () => {
  const docs = readFileSync(join(ROOT, "docs", "language-server.md"), "utf8");
  expect(docs).toContain(`\`\`\`lua\n${documentedBlock("neovim.lua")}\`\`\`\n`);
  // Emacs 28 has no TypeScript mode, so the check derives the test mode from js-mode.
  expect(docs).toContain(`\`\`\`elisp\n${documentedBlock("eglot.el").replace("turnlens-test-mode js-mode", "turnlens-test-mode typescript-ts-mode")}\`\`\`\n`);
});

const NEOVIM = "headless Neovim, its built-in client on `npx turnlens lsp --stdio` in the project, shows the file's diagnostics and applies the quick fix";
const EMACS = "batch Emacs with eglot on `npx turnlens lsp --stdio` in the project shows the file's diagnostics and applies the quick fix";
/** What each editor check prints once the quick fix renamed "agnets": the fixed line, its diagnostic gone, and the check's OK. */
function expectFixApplied({ code, line, stdout }: { code: number | null; line: (pattern: RegExp) => string; stdout: string }) {
  expect(line(/^AFTER FIX line/)).toBe('AFTER FIX line 10: agents: { greeter: answer(GREETING, { greeting: "Hello, Ada!" }) },');
  expect(line(/^AFTER FIX unknown/)).toBe("AFTER FIX unknown-option gone");
  expect(line(/^RESULT:/)).toBe("RESULT: OK");
  expect({ code, stdout }).toEqual({ code: 0, stdout });
}

const missing = (name: string, install: string) => () => {
  throw new Error(`${name} is not installed, and CI must run this test: .ci/run installs it with \`apt-get install -y ${install}\``);
};

if (!hasNvim && !inCi) test.skip(`${NEOVIM} (skipped: nvim is not installed; \`apt-get install -y neovim\` to run it)`, () => {});
else
  test(
    NEOVIM,
    async () => {
      if (!hasNvim) missing("nvim", "neovim")();
      const { code, line, stdout } = await editorCheck("nvim", () => ["--headless", "-n", "-i", "NONE", "-u", join(EDITORS, "neovim.lua")]);
      expect(line(/^DIAG 10:/)).toBe('DIAG 10:5 [turnlens unknown-option] testWorkflow takes no option "agnets"; did you mean "agents"?');
      // Only a run in the installed package's worker finds this one.
      expect(line(/^DIAG 17:/)).toBe('DIAG 17:72 [turnlens entry-never-reached] agent "greeter" was asked 1 turn; its script has 2: this entry is never reached');
      expect(line(/^ACTION Rename/)).toBe('ACTION Rename "agnets" to "agents" (quickfix, preferred)');
      expectFixApplied({ code, line, stdout });
    },
    INSTALL_TIMEOUT,
  );

if (!hasEglot && !inCi) test.skip(`${EMACS} (skipped: emacs or eglot is not installed; \`apt-get install -y emacs-nox elpa-eglot\` to run it)`, () => {});
else
  test(
    EMACS,
    async () => {
      if (!hasEglot) missing("emacs with eglot", "emacs-nox elpa-eglot")();
      const { code, line, stdout } = await editorCheck("emacs", () => ["--batch", "-Q", "-l", join(EDITORS, "eglot.el")]);
      expect(line(/^DIAG line 10:/)).toBe('DIAG line 10: turnlens [unknown-option]: testWorkflow takes no option "agnets"; did you mean "agents"?');
      expect(line(/^DIAG line 17:/)).toBe(
        'DIAG line 17: turnlens [entry-never-reached]: agent "greeter" was asked 1 turn; its script has 2: this entry is never reached',
      );
      expect(line(/^ACTION Rename/)).toBe('ACTION Rename "agnets" to "agents"');
      expectFixApplied({ code, line, stdout });
    },
    INSTALL_TIMEOUT,
  );

test(
  "the project copied to a second path, the first one gone, still passes turnlens test and tsc",
  async () => {
    const first = await project();
    const moved = first.copyTo();
    try {
      first.remove();
      expect(existsSync(first.dir)).toBe(false);
      const tests = await moved.run("npx", ["turnlens", "test"]);
      expect(tests.lastLine).toBe("2 passed, 0 failed");
      expect(tests.code).toBe(0);
      const tsc = await moved.run("npx", ["tsc", "--noEmit", "--pretty", "false"]);
      expect(tsc.stdout).toBe("");
      expect(tsc.code).toBe(0);
    } finally {
      moved.remove();
    }
  },
  INSTALL_TIMEOUT,
);
