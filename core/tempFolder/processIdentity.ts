// Who a process is, so that what it left can be removed only once it is provably gone. A pid alone
// cannot say: two PID namespaces (containers, CI jobs sharing /tmp) each have their own pid 1234,
// and a pid is reused once its process ends. So a process is its pid, its start time, its PID
// namespace and the machine's boot; a process of another namespace or boot is never judged dead.
import { readFileSync, readlinkSync } from "node:fs";

export interface ProcessIdentity {
  pid: number;
  /** Its start time in clock ticks since boot (/proc/<pid>/stat's 22nd field); "0" off Linux. */
  start: string;
  /** Its PID namespace's inode (/proc/self/ns/pid); "0" off Linux (no namespaces there). */
  namespace: string;
  /** The kernel's boot id, shortened: another boot or another machine (a shared TMPDIR) differs. */
  boot: string;
}

/** The start time of `pid` as this process's /proc shows it, or undefined when it cannot be read. */
function startOf(pid: number | "self"): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // The command name (2nd field) may hold spaces and parentheses: the fields after it are counted.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function readOr(read: () => string, otherwise: string): string {
  try {
    return read();
  } catch {
    return otherwise;
  }
}

let own: ProcessIdentity | undefined;
/** Whether this process's /proc is of its own PID namespace (a /proc mounted for another shows other pids). */
let procIsOwn = false;

export function ownIdentity(): ProcessIdentity {
  if (own) return own;
  const linux = process.platform === "linux";
  procIsOwn = linux && readOr(() => readFileSync("/proc/self/stat", "latin1").split(" ")[0] ?? "", "") === String(process.pid);
  own = {
    pid: process.pid,
    start: (linux && startOf("self")) || "0",
    namespace: linux ? readOr(() => /\[(\d+)\]/.exec(readlinkSync("/proc/self/ns/pid"))?.[1] ?? "0", "0") : "0",
    boot: linux ? readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "latin1").replace(/\W/g, "").slice(0, 12), "0") : "0",
  };
  return own;
}

/** The name a process's folder gets: `<pid>.<start>.<namespace>.<boot>`. */
export function identityName(identity: ProcessIdentity): string {
  return `${identity.pid}.${identity.start}.${identity.namespace}.${identity.boot}`;
}

export function parseIdentityName(name: string): ProcessIdentity | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\w+)$/.exec(name);
  if (!match) return undefined;
  return { pid: Number(match[1]), start: match[2]!, namespace: match[3]!, boot: match[4]! };
}

/** Whether `identity` is of this process's boot and PID namespace: only then can its pid be looked at here. */
export function sameNamespace(identity: ProcessIdentity): boolean {
  const mine = ownIdentity();
  return identity.boot === mine.boot && identity.namespace === mine.namespace;
}

/**
 * Whether the process is gone for sure: of this boot and PID namespace, and no process has its pid
 * (kill answers ESRCH), or the one that has it started at another time (the pid was reused).
 * Anything it cannot tell (another namespace, another user's /proc hidden) is alive.
 */
export function provablyDead(identity: ProcessIdentity): boolean {
  const mine = ownIdentity();
  if (!sameNamespace(identity)) return false;
  if (identity.pid === mine.pid) return identity.start !== mine.start;
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
  }
  if (!procIsOwn || identity.start === "0") return false;
  const start = startOf(identity.pid);
  return start !== undefined && start !== identity.start;
}
