// The suite's one time limit. Tests wait on events (a message, an exit, a file), never on a
// wall-clock budget: on a loaded machine everything is slower, nothing is wrong. This limit only
// ends a test that truly hangs, so it is minutes, far past any loaded run.
export const HANG_GUARD_MS = 10 * 60_000;
