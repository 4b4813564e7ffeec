// Temporary files (bundles, served modules, testWorkflow's run folders) never stay: each process
// keeps them in its own subfolder of the user's private temporary folder; a killed worker's goes at
// once (the pool), a worker's that ended cleanly at its exit, and those of processes killed with
// their pool when the next worker starts, if provably dead (core/tempFolder/tempFiles.ts).
import { describe, expect } from "bun:test";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliTest } from "./cliTable.ts";
import { fixture } from "./harness.ts";

/** The user's private temporary folder: one subfolder per process, `<pid>.<start>.<namespace>.<boot>`. */
const ROOT_FOLDER = join(tmpdir(), `turnlens-${process.getuid?.()}`);

function workerPids(stdout: string): number[] {
  return [...stdout.matchAll(/^worker (\d+)$/gm)].map((match) => Number(match[1]));
}

/** The subfolders of process `pid` still there. */
function leftBy(pid: number): string[] {
  return readdirSync(ROOT_FOLDER).filter((name) => name.startsWith(`${pid}.`));
}

/** A pid no process has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) if (!existsSync(`/proc/${pid}`)) return pid;
}

/** This process's own subfolder's name with another pid: the same boot and PID namespace. */
function nameFor(pid: number, start = "12345"): string {
  const own = readdirSync(ROOT_FOLDER).find((name) => name.startsWith(`${process.pid}.`));
  if (!own) throw new Error(`no folder of this process (${process.pid}) in ${ROOT_FOLDER}`);
  const [, , namespace, boot] = own.split(".");
  return `${pid}.${start}.${namespace}.${boot}`;
}

describe("temporary files are always removed", () => {
  cliTest({
    name: "a worker killed while loading a file or inside a run leaves no bundle and no run folder",
    args: [fixture("tempFiles"), "--timeout", "300ms"],
    code: 1,
    check: (result) => {
      const pids = workerPids(result.stdout);
      expect(pids).toHaveLength(2);
      for (const pid of pids) expect(leftBy(pid)).toEqual([]);
    },
  });

  // Named in setup, when this worker's own folder is there to take the namespace and boot from.
  let planted = { dead: "", reused: "", otherNamespace: "" };
  cliTest({
    name: "what a process killed with its pool left is removed when the next worker starts; a live process's and another namespace's stay",
    setup: () => {
      const dead = nameFor(deadPid());
      // A live process (pid 1) with another start time is a dead one whose pid was reused.
      planted = { dead, reused: nameFor(1, "999999999999"), otherNamespace: dead.replace(/^(\d+\.\d+)\.\d+\./, "$1.1.") };
      for (const name of Object.values(planted)) {
        mkdirSync(join(ROOT_FOLDER, name, "run-1", "inside"), { recursive: true });
        writeFileSync(join(ROOT_FOLDER, name, "a.test.ts.bundle.1.mjs"), "export {};\n");
      }
    },
    args: [fixture("pass")],
    code: 0,
    check: () => {
      expect(Object.values(planted).map((name) => existsSync(join(ROOT_FOLDER, name)))).toEqual([false, false, true]);
      expect(leftBy(process.pid)).toHaveLength(1);
      rmSync(join(ROOT_FOLDER, planted.otherNamespace), { recursive: true });
    },
  });
});
