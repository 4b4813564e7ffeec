// The language server's start, timed: the moments from the process's start to the first open test
// document's first results (the bundle loaded, initialize, the worker ready, the document opened,
// its run), said in one log line, so a slow first result can be placed (BENCHMARKS.md, "A cold window").
// Each bundle (dist/server.js, dist/serverMain.js) has its own copy of this module: the server's adopts the other's marks.

export interface Mark {
  what: string;
  /** ms since the process began (performance.now(): its origin is the process's start). */
  ms: number;
}

/** This bundle's marks; the server's bundle adopts dist/server.js's (adoptStartMarks) and marks into them. */
let list: Mark[] = [];

/** The marks made so far (firstWorker.ts hands them on with the first worker; earlyPool.ts, in the server's bundle, adopts them). */
export function startMarks(): Mark[] {
  return list;
}

/** Marks into `marks` from now on (those of dist/server.js), with any made here before. */
export function adoptStartMarks(marks: Mark[]): void {
  if (marks === list) return;
  for (const mark of list) if (!marks.some((other) => other.what === mark.what)) marks.push(mark);
  list = marks;
}

/** Notes that `what` happened now; only its first time counts. */
export function markStart(what: string): void {
  if (list.some((mark) => mark.what === what)) return;
  list.push({ what, ms: performance.now() });
}

/** The pool's `observe`: a worker's first `ready`, its first warm-up's end (the preload: esbuild's start, the served modules). */
export function observeWorkers(event: "ready" | "warm-up done"): void {
  markStart(event === "ready" ? "worker ready" : "worker preloaded");
}

/** Whether `what` was marked. */
export function marked(what: string): boolean {
  return list.some((mark) => mark.what === what);
}

/**
 * `start (ms after the process began, 2026-12-02T15:00:00.000Z): worker forked 95 · server bundle
 * loaded 410 · …`, in the order they happened; the process's start as a date, so a client's own
 * times (the editor's) can be set beside it.
 */
export function startLine(): string {
  const sorted = [...list].sort((left, right) => left.ms - right.ms);
  const began = new Date(performance.timeOrigin).toISOString();
  return `start (ms after the process began, ${began}): ${sorted.map((mark) => `${mark.what} ${Math.round(mark.ms)}`).join(" · ")}`;
}
