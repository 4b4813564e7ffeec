// A captured stack's text, read from V8's frames and mapped by the runner's own frame mapper when
// it has installed one: Node's formatting parses a bundle's source map into a cache it keeps for
// the process's life (most of what a test file left in a worker), to read one call site.
import type { SourceSite } from "./trace.ts";

/** Where a frame's generated position came from, or undefined when it has no mapping (the frame is shown as V8 shows it). */
export type FrameMapper = (fileName: string, line: number, column: number) => SourceSite | undefined;

let frameMapper: FrameMapper | undefined;

/** Has stacks read through `mapper` (the test worker's, which knows its bundles' maps) instead of Node's formatting; returns the one it replaces. */
export function useFrameMapper(mapper: FrameMapper | undefined): FrameMapper | undefined {
  const previous = frameMapper;
  frameMapper = mapper;
  return previous;
}

// Node's own formatter as this module loaded, before any test ran: one a test or a tool (Vitest's
// source-map support) installed maps its own way, and the stack is then read through it.
const nodePrepareStackTrace = Error.prepareStackTrace;

const keepCallSites = (_error: Error, callSites: NodeJS.CallSite[]): NodeJS.CallSite[] => callSites;

/** One frame as Node's formatter writes it, without the function's name (the readers need the place only). */
function frameLine(callSite: NodeJS.CallSite, mapper: FrameMapper): string {
  const fileName = callSite.getFileName();
  const line = callSite.getLineNumber();
  const column = callSite.getColumnNumber();
  if (fileName && line !== null && column !== null && !callSite.isEval()) {
    const site = mapper(fileName, line, column);
    if (site) return `    at ${site.file}:${site.line}:${site.column}`;
  }
  return `    at ${String(callSite)}`;
}

/**
 * `holder.stack` (a holder of Error.captureStackTrace, not yet read), its frames mapped by the
 * installed frame mapper when there is one and Node's formatter is the one installed; else
 * `holder.stack` as Node (or whatever formatter is installed) writes it.
 */
export function stackText(holder: { stack?: unknown }): string | undefined {
  const mapper = frameMapper;
  if (mapper && Error.prepareStackTrace === nodePrepareStackTrace) {
    let callSites: unknown;
    try {
      Error.prepareStackTrace = keepCallSites;
      callSites = holder.stack;
    } catch {
      // An Error a test froze: the stack is read the usual way, below.
      callSites = undefined;
    }
    if (Error.prepareStackTrace !== nodePrepareStackTrace) Error.prepareStackTrace = nodePrepareStackTrace;
    if (Array.isArray(callSites)) {
      let text = "Error";
      for (const callSite of callSites as NodeJS.CallSite[]) text += `\n${frameLine(callSite, mapper)}`;
      return text;
    }
  }
  const stack = holder.stack;
  return typeof stack === "string" ? stack : undefined;
}
