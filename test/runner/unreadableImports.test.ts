// A test file that imports something no bundle can read (a named pipe, a link to /dev/zero, a file
// over the size cap) fails with the import named, at once, instead of hanging or filling memory.
import { describe, expect, test } from "bun:test";
import { execFileSync, spawn } from "node:child_process";
import { symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inProject } from "./cliTable.ts";
import { ROOT, SLOW, withoutAgentOrCi } from "./harness.ts";

/** Far past any loaded run: without the bound the FIFO hangs until the bundle phase's 60 s watchdog, /dev/zero for ever. */
const GUARD_MS = 180_000;

/**
 * `turnlens test FILE` in `dir`, its address space capped at 3 GB (each process; Node reserves far
 * more than it uses, so less refuses to start it): a bundler that reads /dev/zero without bound dies
 * there instead of taking the machine. Past GUARD_MS the CLI is killed and the promise rejects.
 */
function runCapped(dir: string, file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", 'ulimit -v 3000000; exec "$0" "$@"', process.execPath, join(ROOT, "bin", "turnlens.mjs"), "test", file], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined, ...withoutAgentOrCi() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const guard = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`turnlens test ${file} did not end within ${GUARD_MS / 1000}s\n${stdout}${stderr}`));
    }, GUARD_MS);
    child.on("close", (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

const importing = (module: string) => `import { expect, test } from "bun:test";\nimport value from "${module}";\ntest("x", () => { expect(value).toBe(1); });\n`;

/** A test file importing what `setup` makes, which fails alone with `message` (given the project folder). */
interface UnreadableRow {
  name: string;
  file: string;
  module: string;
  setup: (dir: string) => void;
  message: (dir: string) => string;
}

const SINGLE_FILE_ROWS: UnreadableRow[] = [
  {
    name: "a test file importing a named pipe fails at once, naming the import and what the file is",
    file: "f.test.ts",
    module: "./fifo",
    setup: (dir) => execFileSync("mkfifo", [join(dir, "fifo.ts")]),
    message: (dir) => `${join(dir, "f.test.ts")}:2:19 imports "./fifo" (${join(dir, "fifo.ts")}), which is not a regular file: it is a named pipe (FIFO)`,
  },
  {
    name: "a test file importing a symbolic link to /dev/zero fails without reading it, naming the import and the device",
    file: "z.test.ts",
    module: "./zero",
    setup: (dir) => symlinkSync("/dev/zero", join(dir, "zero.ts")),
    message: (dir) => `${join(dir, "z.test.ts")}:2:19 imports "./zero" (/dev/zero), which is not a regular file: it is a character device`,
  },
];

describe("imports a bundle cannot read", () => {
  for (const row of SINGLE_FILE_ROWS) {
    test(
      row.name,
      () =>
        inProject({ files: { [row.file]: importing(row.module) }, setup: row.setup }, async (dir) => {
          const result = await runCapped(dir, row.file);
          expect(result.stdout).toContain(row.message(dir));
          expect(result.stdout).toContain("0 passed, 1 failed");
          expect(result.code).toBe(1);
        }),
      SLOW,
    );
  }

  test(
    "an imported JSON file or source file over 32 MB fails the file with its size, and is not read",
    () =>
      inProject({ files: { "j.test.ts": importing("./data.json"), "b.test.ts": importing("./big") } }, async (dir) => {
        symlinkSync("/dev/zero", join(dir, "data.json"));
        // A sparse file: its size is on record, its bytes take no disk.
        writeFileSync(join(dir, "big.ts"), "");
        truncateSync(join(dir, "big.ts"), 40 * 1024 * 1024);
        const json = await runCapped(dir, "j.test.ts");
        expect(json.stdout).toContain(`${join(dir, "j.test.ts")}:2:19 imports "./data.json" (/dev/zero), which is not a regular file: it is a character device`);
        const big = await runCapped(dir, "b.test.ts");
        expect(big.stdout).toContain(
          `${join(dir, "b.test.ts")}:2:19 imports "./big" (${join(dir, "big.ts")}), which is larger than 32 MB (40.0 MB), the most a test's bundle reads from one file`,
        );
        expect([json.code, big.code]).toEqual([1, 1]);
      }),
    SLOW,
  );
});
