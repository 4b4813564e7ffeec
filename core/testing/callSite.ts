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

/** The stack lines above `callee`: the call that invoked it, then its callers. */
export function callerStack(callee: Function): string[] {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = Math.max(limit, 20);
  Error.captureStackTrace(holder, callee);
  Error.stackTraceLimit = limit;
  return (holder.stack ?? "").split("\n").slice(1);
}

/** The source site that called `callee`. */
export function callSiteOf(callee: Function): SourceSite | undefined {
  for (const line of callerStack(callee)) {
    const site = parseFrame(line);
    if (site) return site;
  }
  return undefined;
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
