// Where a script entry or a testWorkflow call was written: the caller's first stack frame, which
// the runner's source maps (or Bun's) already map back to the .ts source.

import { fileURLToPath } from "node:url";
import { stackText } from "./stackText.ts";
import type { SourceSite } from "./trace.ts";

// "    at fn (/path/file.ts:12:5)" or "    at /path/file.ts:12:5" or "    at async fn (file:///x.ts:1:2)"
const FRAME = /^\s*at (?:.*? \()?(?<file>(?:file:\/\/)?[^()]+?):(?<line>\d+):(?<column>\d+)\)?$/;

export function parseFrame(line: string): SourceSite | undefined {
  const match = FRAME.exec(line);
  if (!match?.groups) return undefined;
  let file = match.groups.file!;
  if (file.startsWith("file://")) file = decodeURIComponent(new URL(file).pathname);
  if (file.startsWith("node:") || file.startsWith("internal/")) return undefined;
  return { file, line: Number(match.groups.line), column: Number(match.groups.column) };
}

/** The stack lines above `callee`: the call that invoked it, then its callers (`frames` of them, 20 or the process's limit if higher). */
export function callerStack(callee: Function, frames?: number): string[] {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = frames ?? Math.max(limit, 20);
  Error.captureStackTrace(holder, callee);
  Error.stackTraceLimit = limit;
  return (stackText(holder) ?? "").split("\n").slice(1);
}

/** A site as a message names it: its path from the working folder when under it, line and column. */
export function siteText(site: SourceSite): string {
  const cwd = process.cwd();
  const file = site.file.startsWith(`${cwd}/`) ? site.file.slice(cwd.length + 1) : site.file;
  return `${file}:${site.line}:${site.column}`;
}

/** The first source site among stack lines: a frame outside node's own code. */
export function siteIn(lines: readonly string[]): SourceSite | undefined {
  for (const line of lines) {
    const site = parseFrame(line);
    if (site) return site;
  }
  return undefined;
}

/** The source site that called `callee`. */
export function callSiteOf(callee: Function): SourceSite | undefined {
  // Capturing and formatting (with source maps, mapping) cost by the frame, and the caller is
  // nearly always the first: a few frames first, the whole stack only when none is a source site.
  return siteIn(callerStack(callee, 3)) ?? siteIn(callerStack(callee));
}

/**
 * Turnlens's own source and built folders (`core/`, `dist/` of this package): no frame in them is a
 * user's (a source-mapped dist frame points back to core/). Found from where this module was loaded:
 * core/testing/, or dist/ (a chunk, or a CommonJS bundle); from its URL, not from a stack: formatting
 * one as the module loaded put Node's first stack formatting on every process's start, the CLI's too.
 */
const OWN_FOLDERS = (() => {
  const file = import.meta.url.startsWith("file:") ? fileURLToPath(import.meta.url) : "";
  if (!file) return [];
  const folder = file.slice(0, file.lastIndexOf("/") + 1);
  const at = Math.max(folder.lastIndexOf("/core/"), folder.lastIndexOf("/dist/"));
  if (at < 0) return [folder];
  const root = folder.slice(0, at + 1);
  return [`${root}core/`, `${root}dist/`];
})();

function isUserFile(file: string): boolean {
  if (file.includes("/node_modules/")) return false;
  for (const folder of OWN_FOLDERS) if (file.startsWith(folder)) return false;
  return true;
}

/** The first source site among stack lines that is the user's: not Turnlens's own code, nor node_modules'. */
function firstUserSiteIn(lines: readonly string[]): SourceSite | undefined {
  for (const line of lines) {
    const site = parseFrame(line);
    if (site && isUserFile(site.file)) return site;
  }
  return undefined;
}

/** The first frame of an error's stack in user code: where a script threw. */
export function firstUserFrame(error: Error): SourceSite | undefined {
  return firstUserSiteIn((error.stack ?? "").split("\n").slice(1));
}

/** A stack captured but not formatted: V8 records the frames at capture, and formats them (through the source maps) only when `stack` is first read (stackText.ts). */
interface CapturedStack {
  stack?: string;
}

/** Captures `frames` frames above `callee`, unformatted. */
export function captureStack(callee: Function, frames: number): CapturedStack {
  const holder: CapturedStack = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = frames;
  Error.captureStackTrace(holder, callee);
  Error.stackTraceLimit = limit;
  return holder;
}

/**
 * Where a call was made, read only when something asks: the capture is cheap, the formatting and
 * source mapping are not (they were most of what `answer()` cost), and most runs never read a site.
 */
export class LazySite {
  #stack: CapturedStack | undefined;
  #site: SourceSite | undefined;
  readonly #userOnly: boolean;

  /** `userOnly`: the first frame outside Turnlens and node_modules (a workflow's call); else the first outside node (a script entry's). */
  constructor(stack: CapturedStack, userOnly: boolean) {
    this.#stack = stack;
    this.#userOnly = userOnly;
  }

  get site(): SourceSite | undefined {
    const stack = this.#stack;
    if (stack) {
      this.#stack = undefined;
      const lines = (stackText(stack) ?? "").split("\n").slice(1);
      this.#site = this.#userOnly ? firstUserSiteIn(lines) : siteIn(lines);
    }
    return this.#site;
  }
}

/** Frames a workflow call's capture keeps: the call is the first above the engine's entry; a few more get past a Turnlens or node_modules caller. */
const CALL_FRAMES = 4;
/** Frames an entry's capture keeps: its caller is nearly always the first. */
const ENTRY_FRAMES = 4;

/** A workflow's call of the engine (`agent.run`, `wf.agents.open`, `wf.decide`), its site read later. */
export function captureCall(callee: Function): LazySite {
  return new LazySite(captureStack(callee, CALL_FRAMES), true);
}

/** Where `answer(...)` or a `noAnswer` was called, read later. */
export function captureEntrySite(callee: Function): LazySite {
  return new LazySite(captureStack(callee, ENTRY_FRAMES), false);
}

/**
 * Sites a run captured, written into their traces (`askedAt`, `openedAt`, `sentAt`, an entry's and
 * a match's `site`) only when something reads the run's trace: a run nobody reads formats no stack.
 */
export class PendingSites {
  private readonly pending: unknown[] = [];

  /** `target[field]` gets `site`'s site when the traces are read; `site` is a LazySite (the engine carries it as an opaque object). */
  add(target: object, field: string, site: object): void {
    this.pending.push(target, field, site);
  }

  /** Writes every pending site; one with no frame to show leaves its field absent. */
  resolve(): void {
    const pending = this.pending;
    for (let index = 0; index < pending.length; index += 3) {
      const site = (pending[index + 2] as LazySite).site;
      if (site) (pending[index] as Record<string, unknown>)[pending[index + 1] as string] = site;
    }
    pending.length = 0;
  }
}
