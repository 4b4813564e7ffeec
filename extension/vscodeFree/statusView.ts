// What the language status item says, from the client's state and the runs it has seen. No
// `vscode` import, so the wording is unit-tested; status.ts puts it on the item.

/** A run slower than this turns the item into a warning: Turnlens is meant to answer while you type. */
export const SLOW_RUN_MS = 4000;

export interface LastRun extends ResultCounts {
  durationMs: number;
}

/** Tests by result. */
export interface ResultCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/** The Turnlens the server comes from: the workspace's installed package or the extension's own copy. */
export interface EngineInUse {
  source: "workspace" | "bundled";
  version: string;
  /** Why the workspace's package was passed over (too old, too new, untrusted workspace…). */
  refusal?: string;
}

export interface StatusState {
  /** The server process as the client sees it; `failed` means it will not be restarted. */
  server: "starting" | "ready" | "stopped" | "failed";
  trusted: boolean;
  /** When each run going on started (ms, the extension's clock). */
  runningSince: number[];
  lastRun?: LastRun;
  /** Every test's latest known result in the workspace, whichever run gave it (latestResults.ts). */
  latest?: ResultCounts;
  /** Turnlens diagnostics in the workspace. */
  problems: number;
  /** What last happened to the server that the user did not ask for (a crash and restart). */
  incident?: string;
  runMode: string;
  /** The run mode was chosen for this session only (not the setting). */
  sessionRunMode: boolean;
  engine?: EngineInUse;
}

export interface StatusView {
  text: string;
  detail: string;
  severity: "information" | "warning" | "error";
  busy: boolean;
}

export function statusView(state: StatusState, now: number): StatusView {
  const view = statusOfRuns(state, now);
  const engine = state.engine;
  if (!engine) return view;
  const which = `${engine.source === "workspace" ? "the workspace's" : "bundled"} Turnlens ${engine.version}`;
  // An untrusted workspace already says so; a package the extension cannot speak to is a warning.
  const refused = engine.refusal !== undefined && state.trusted;
  return {
    ...view,
    detail: [view.detail, refused ? `${which}: ${engine.refusal}` : which].filter(Boolean).join(" · "),
    severity: refused && view.severity === "information" ? "warning" : view.severity,
  };
}

function statusOfRuns(state: StatusState, now: number): StatusView {
  const mode = `runs ${state.runMode}${state.sessionRunMode ? " (this session)" : ""}`;
  if (state.server === "failed")
    return {
      text: "Turnlens stopped",
      detail: state.incident ?? "the server stopped and will not restart; run Turnlens: Restart the Server",
      severity: "error",
      busy: false,
    };
  if (state.server === "stopped") return { text: "Turnlens stopped", detail: state.incident ?? "the server is stopped", severity: "information", busy: false };
  if (state.server === "starting")
    return { text: "Turnlens starting", detail: state.incident ?? "starting the server", severity: state.incident ? "warning" : "information", busy: true };
  if (!state.trusted)
    return { text: "Turnlens restricted", detail: "this workspace is not trusted: no test runs; static checks still show", severity: "warning", busy: false };

  const problems = state.problems > 0 ? ` · ${plural(state.problems, "problem")}` : "";
  const details: string[] = [];
  let severity: StatusView["severity"] = "information";
  if (state.incident) {
    details.push(state.incident);
    severity = "warning";
  }
  if (state.runningSince.length > 0) {
    const longest = now - Math.min(...state.runningSince);
    if (longest > SLOW_RUN_MS) {
      details.push(`a run has taken ${seconds(longest)} (more than ${seconds(SLOW_RUN_MS)})`);
      severity = "warning";
    }
    details.push(mode);
    return { text: `Turnlens running${problems}`, detail: details.join(" · "), severity, busy: true };
  }
  if (!state.lastRun) {
    details.push(mode);
    return { text: `Turnlens${problems}`, detail: details.join(" · "), severity, busy: false };
  }
  const last = state.lastRun;
  if (state.latest) details.push(`every test: ${countsText(state.latest)}`);
  details.push(`last run: ${countsText(last)} in ${duration(last.durationMs)}`);
  if (last.durationMs > SLOW_RUN_MS) {
    details.push(`slower than ${seconds(SLOW_RUN_MS)}: look for real waits or large fixtures`);
    severity = "warning";
  }
  details.push(mode);
  return { text: `Turnlens ${duration(last.durationMs)}${problems}`, detail: details.join(" · "), severity, busy: false };
}

function countsText(counts: ResultCounts): string {
  const parts = [
    counts.passed > 0 ? `${counts.passed} passed` : "",
    counts.failed > 0 ? `${counts.failed} failed` : "",
    counts.skipped > 0 ? `${counts.skipped} skipped` : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "no tests";
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : seconds(ms);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/**
 * What the status bar item says: every test's latest known result in the workspace (counted by
 * test, whichever run gave it: a run of one file does not hide another file's failures) and a
 * spinner while a run goes.
 */
export interface StatusBarView {
  text: string;
  tooltip: string;
  /** Where a click goes: the Testing view when tests failed, else the output channel. */
  command: "workbench.view.testing.focus" | "turnlens.showOutput";
  /** The item's background: `error` while a test fails or when the server will not restart. */
  background: "error" | "none";
}

export function statusBarView(state: StatusState, now: number): StatusBarView {
  const detail = statusView(state, now).detail;
  // No test with a result yet (none ran, or their files are not listed yet): nothing to count.
  const last = state.latest && state.latest.passed + state.latest.failed + state.latest.skipped > 0 ? state.latest : undefined;
  if (state.server === "failed") return { text: "$(error) Turnlens stopped", tooltip: detail, command: "turnlens.showOutput", background: "error" };
  if (state.server !== "ready" || !state.trusted) {
    const view = statusView(state, now);
    return { text: `${view.busy ? "$(sync~spin) " : ""}${view.text}`, tooltip: detail, command: "turnlens.showOutput", background: "none" };
  }
  const counts = last
    ? [last.failed > 0 ? `$(error) ${last.failed} failed` : "", `$(pass) ${last.passed} passed`, last.skipped > 0 ? `${last.skipped} skipped` : ""]
        .filter(Boolean)
        .join("  ")
    : "";
  if (state.runningSince.length > 0) {
    return { text: `$(sync~spin) Turnlens${counts ? `  ${counts}` : " running"}`, tooltip: `running · ${detail}`, command: "turnlens.showOutput", background: "none" };
  }
  if (!last) return { text: "$(beaker) Turnlens", tooltip: detail, command: "turnlens.showOutput", background: "none" };
  const failed = last.failed > 0;
  return {
    text: `$(beaker) ${counts}`,
    tooltip: `${detail} · click for ${failed ? "the Testing view" : "the output"}`,
    command: failed ? "workbench.view.testing.focus" : "turnlens.showOutput",
    background: failed ? "error" : "none",
  };
}
