// Where a script entry or a testWorkflow call was written: the caller's first stack frame, which
// the runner's source maps (or Bun's) already map back to the .ts source.

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
  return (holder.stack ?? "").split("\n").slice(1);
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

/** The folder this module was loaded from: Turnlens's own frames are in it, never a user's. */
const OWN_DIRECTORY = (() => {
  const here = parseFrame(new Error().stack?.split("\n")[1] ?? "");
  return here ? here.file.slice(0, here.file.lastIndexOf("/") + 1) : undefined;
})();

/** The first frame of an error's stack in user code: where a script threw. */
export function firstUserFrame(error: Error): SourceSite | undefined {
  for (const line of (error.stack ?? "").split("\n").slice(1)) {
    const site = parseFrame(line);
    if (!site || site.file.includes("/node_modules/")) continue;
    if (OWN_DIRECTORY && site.file.startsWith(OWN_DIRECTORY)) continue;
    return site;
  }
  return undefined;
}
