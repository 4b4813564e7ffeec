// The language server's numbers in one place, as the runner's are in core/execution/limits.ts: its
// grace periods, delays, timeouts and caps. The settings' defaults are the settings' (settings.ts).

/**
 * How long a background run abandoned for a newer edit may keep its worker silent (no test
 * beginning or ending) before the worker is killed. A warm worker ends a small file in 20–50 ms,
 * far sooner than a fresh worker is ready (185–260 ms, seconds on a loaded machine), so it is let
 * finish and stays warm; a test that loops or waits is cut off here. Meanwhile the new run takes
 * another worker (the pool starts a second one beside it once), so the grace never delays it.
 */
export const ABANDONED_RUN_GRACE_MS = 1000;

/** How long a worker whose "Check what this test asserts" was cancelled may finish its test before it is killed. */
export const ABANDONED_CHECK_GRACE_MS = 2000;

/** A run shows `window/workDoneProgress` once it has taken this long (on the injected timer). */
export const PROGRESS_DELAY_MS = 300;

/** Documents whose tests' reports `turnlens/transcript` and `turnlens/timeline` keep; the least recently run is dropped past this. */
export const KEPT_TRANSCRIPT_DOCUMENTS = 100;

/** A `turnlens.recordRun` replay that takes longer than this is stopped: a recorded run's turns take no time. */
export const RECORD_TIMEOUT_MS = 120_000;

/** The test timeout of the warm-up files a fresh worker runs (warmup.ts). */
export const WARMUP_TIMEOUT_MS = 10_000;

/** The heap each worker may use: a test that exhausts memory crashes its worker (reported, respawned), not the machine. */
export const WORKER_HEAP_MB = 2048;

/** Worker log lines held before the server's log exists, at most this many (a worker that crash-loops says a lot). */
export const HELD_WORKER_LINES = 100;

/**
 * Deferred work runs anyway after this many messages were handled since it was deferred, so a
 * client that never pauses still gets diagnostics (a few times per flood, not per edit); work
 * deferred `untilIdle` (a run's start) waits for a pause, as the next edit would cancel it.
 */
export const MAX_DEFERRED_MESSAGES = 2000;

/**
 * A frame's body larger than this is refused as a bad header, at once: 64 MiB. VS Code syncs no
 * document above 50 MB to extensions, and a didOpen of one that size, JSON-escaped, stays under
 * it; a larger announcement is a broken or hostile client, and waiting for its bytes would take
 * every later message as body (docs/language-server.md, "Malformed frames").
 */
export const MAX_CONTENT_LENGTH = 64 * 2 ** 20;

/**
 * How deep the static pass walks a syntax tree (and how deep brackets may nest when TypeScript's
 * own parser runs out of stack). Real test files stay under 40; the walk and the parser hold
 * about 700 on Node's default stack, so 300 leaves room for whatever called the pass.
 */
export const DEPTH_LIMIT = 300;

/** VS Code's default `editor.inlayHints.maximumLength`: it cuts a longer hint with `…`, so no hint of ours is longer (hintLabels.ts). */
export const HINT_WIDTH = 43;

/**
 * A line longer than this has its hint after the entry's callee (or a call's name), not at its end:
 * the width an editor shows without scrolling beside the side bar at a usual font, a common ruler (runHints.ts).
 */
export const LONG_LINE = 100;
