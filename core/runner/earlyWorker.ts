// `turnlens test`'s first worker, forked by the command's entry (cliStart.ts) before the rest of the
// CLI loads, so the worker's own start (Node's, then its bundle) overlaps the CLI's load and the
// search for test files. Its messages wait here until the first pool takes it.
import { processSlot } from "../execution/processSlot.ts";
import { forkWorker } from "../execution/workerProcess.ts";
import { endedClean, killGroup } from "../execution/processTree.ts";

type ChildProcess = ReturnType<typeof forkWorker>;

interface EarlyWorker {
  child: ChildProcess;
  held: unknown[];
  hold: (message: unknown) => void;
}

// On the process, not in this module: the entry (dist/cli.mjs) forks it and the CLI's own bundle
// (dist/cliMain.js, a second copy of this module) takes or discards it.
const early = processSlot<EarlyWorker>("earlyWorker");

/** Forks the worker the first pool will take (its `ready` is held until then). */
export function forkEarlyWorker(): void {
  if (early.get()) return;
  const child = forkWorker();
  const held: unknown[] = [];
  const hold = (message: unknown) => held.push(message);
  child.on("message", hold);
  // Until it is taken, it must not keep this process alive (a usage error, no test files).
  child.on("error", () => {});
  child.unref();
  child.channel?.unref();
  early.set({ child, held, hold });
}

/**
 * The early worker, once, if it is still alive; else undefined (the caller forks one). Its held
 * messages are emitted again on the next tick, after the caller's listeners are on and before any
 * message that arrives later.
 */
export function takeEarlyWorker(): ChildProcess | undefined {
  const taken = early.take();
  if (!taken) return undefined;
  const { child, held, hold } = taken;
  child.off("message", hold);
  if (child.exitCode !== null || child.signalCode !== null || !child.connected) {
    child.kill("SIGKILL");
    return undefined;
  }
  child.ref();
  child.channel?.ref();
  process.nextTick(() => {
    for (const message of held) child.emit("message", message);
  });
  return child;
}

/**
 * Ends the early worker if no pool took it (a usage error, no test files, every file from --cache).
 * It ran no test file, so all it started is in its own process group (esbuild's service): killing
 * the group accounts for it, and the command's exit need not search /proc for its tag.
 */
export function discardEarlyWorker(): void {
  const pid = early.take()?.child.pid;
  if (pid === undefined) return;
  killGroup(pid);
  endedClean(pid);
}
