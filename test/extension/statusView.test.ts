// What the language status item says (extension/vscodeFree/statusView.ts): the server's state, runs going on,
// every test's latest result, the last run, problems, the 4 s warning, a crash, an untrusted workspace;
// the status bar item counts every test's latest result in the workspace, not the last run alone.
import { describe, expect, test } from "bun:test";
import { SLOW_RUN_MS, statusBarView, statusView, type StatusState } from "../../extension/vscodeFree/statusView.ts";

const ready: StatusState = { server: "ready", trusted: true, runningSince: [], problems: 0, runMode: "onType", sessionRunMode: false };

describe("the status item", () => {
  test("names the last run's counts and time, the problems and the run mode", () => {
    expect(statusView({ ...ready, problems: 2, lastRun: { durationMs: 240, passed: 3, failed: 1, skipped: 0 } }, 0)).toEqual({
      text: "Turnlens 240 ms · 2 problems",
      detail: "last run: 3 passed, 1 failed in 240 ms · runs onType",
      severity: "information",
      busy: false,
    });
    expect(statusView({ ...ready, runMode: "manual", sessionRunMode: true }, 0).detail).toBe("runs manual (this session)");
  });

  test("names every test's latest result in the workspace beside the last run's", () => {
    const state = { ...ready, latest: { passed: 38, failed: 13, skipped: 0 }, lastRun: { durationMs: 240, passed: 2, failed: 0, skipped: 0 } };
    expect(statusView(state, 0).detail).toBe("every test: 38 passed, 13 failed · last run: 2 passed in 240 ms · runs onType");
  });

  test("is busy while a run goes, and warns once one has taken more than 4 s", () => {
    expect(statusView({ ...ready, runningSince: [1000] }, 1000 + SLOW_RUN_MS)).toMatchObject({ text: "Turnlens running", severity: "information", busy: true });
    expect(statusView({ ...ready, runningSince: [1000, 3000] }, 1000 + SLOW_RUN_MS + 500)).toMatchObject({
      severity: "warning",
      detail: "a run has taken 4.5 s (more than 4 s) · runs onType",
    });
  });

  test("warns after a run slower than 4 s", () => {
    expect(statusView({ ...ready, lastRun: { durationMs: 5200, passed: 1, failed: 0, skipped: 0 } }, 0)).toMatchObject({ text: "Turnlens 5.2 s", severity: "warning" });
  });

  test("says what happened to the server: restarted after a crash, or given up", () => {
    const incident = "the server was killed (SIGKILL) at 12:00:00 and was restarted";
    expect(statusView({ ...ready, incident }, 0)).toMatchObject({ severity: "warning", detail: `${incident} · runs onType` });
    expect(statusView({ ...ready, server: "starting", incident }, 0)).toMatchObject({ text: "Turnlens starting", detail: incident, busy: true });
    expect(statusView({ ...ready, server: "failed", incident: "it crashed 5 times" }, 0)).toMatchObject({ text: "Turnlens stopped", severity: "error" });
  });

  test("names the Turnlens in use and its version: the workspace's or the bundled one", () => {
    expect(statusView({ ...ready, engine: { source: "workspace", version: "0.2.0" } }, 0)).toMatchObject({
      detail: "runs onType · the workspace's Turnlens 0.2.0",
      severity: "information",
    });
    expect(statusView({ ...ready, engine: { source: "bundled", version: "0.1.0" } }, 0)).toMatchObject({
      detail: "runs onType · bundled Turnlens 0.1.0",
      severity: "information",
    });
  });

  test("warns, with the reason, when the workspace's Turnlens was passed over for the bundled one", () => {
    const refusal = "the workspace's Turnlens 0.0.9 (/w/node_modules/turnlens) is too old for this extension (Turnlens 0.1.0, protocol 1)";
    expect(statusView({ ...ready, engine: { source: "bundled", version: "0.1.0", refusal } }, 0)).toMatchObject({
      detail: `runs onType · bundled Turnlens 0.1.0: ${refusal}`,
      severity: "warning",
    });
    // Untrusted: the item already says so, and the bundled copy is simply what runs.
    expect(statusView({ ...ready, trusted: false, engine: { source: "bundled", version: "0.1.0", refusal: "not trusted" } }, 0)).toMatchObject({
      text: "Turnlens restricted",
      detail: "this workspace is not trusted: no test runs; static checks still show · bundled Turnlens 0.1.0",
    });
  });

  test("says no tests run in an untrusted workspace", () => {
    expect(statusView({ ...ready, trusted: false }, 0)).toMatchObject({ text: "Turnlens restricted", severity: "warning" });
  });
});

describe("the status bar item", () => {
  /** The item after a run of every test that counted `counts` in `durationMs`. */
  const afterRunOfAll = (counts: { passed: number; failed: number; skipped: number }, durationMs: number) =>
    statusBarView({ ...ready, latest: counts, lastRun: { durationMs, ...counts } }, 0);

  test("shows every test's latest result, failures first, and a click while tests fail opens the Testing view", () => {
    expect(afterRunOfAll({ passed: 57, failed: 15, skipped: 0 }, 240)).toEqual({
      text: "$(beaker) $(error) 15 failed  $(pass) 57 passed",
      tooltip: "every test: 57 passed, 15 failed · last run: 57 passed, 15 failed in 240 ms · runs onType · click for the Testing view",
      command: "workbench.view.testing.focus",
      background: "error",
    });
  });

  test("after a run of one passing file it still counts the other files' failures: every test's latest result, not the last run alone", () => {
    const afterRunAll = { ...ready, latest: { passed: 38, failed: 13, skipped: 0 } };
    expect(statusBarView({ ...afterRunAll, lastRun: { durationMs: 40, passed: 2, failed: 0, skipped: 0 } }, 0)).toEqual({
      text: "$(beaker) $(error) 13 failed  $(pass) 38 passed",
      tooltip: "every test: 38 passed, 13 failed · last run: 2 passed in 40 ms · runs onType · click for the Testing view",
      command: "workbench.view.testing.focus",
      background: "error",
    });
  });

  test("every test passing reads as passed and a click opens the output", () => {
    expect(afterRunOfAll({ passed: 2, failed: 0, skipped: 1 }, 40)).toEqual({
      text: "$(beaker) $(pass) 2 passed  1 skipped",
      tooltip: "every test: 2 passed, 1 skipped · last run: 2 passed, 1 skipped in 40 ms · runs onType · click for the output",
      command: "turnlens.showOutput",
      background: "none",
    });
  });

  test("spins while a run goes, keeping every test's latest result beside the spinner", () => {
    expect(statusBarView({ ...ready, runningSince: [0] }, 10).text).toBe("$(sync~spin) Turnlens running");
    expect(statusBarView({ ...ready, runningSince: [0], latest: { passed: 2, failed: 1, skipped: 0 } }, 10).text).toBe(
      "$(sync~spin) Turnlens  $(error) 1 failed  $(pass) 2 passed",
    );
  });

  test("before any run, while starting and after the server gave up, it says so", () => {
    expect(statusBarView(ready, 0).text).toBe("$(beaker) Turnlens");
    expect(statusBarView({ ...ready, latest: { passed: 0, failed: 0, skipped: 0 } }, 0).text).toBe("$(beaker) Turnlens");
    expect(statusBarView({ ...ready, server: "starting" }, 0).text).toBe("$(sync~spin) Turnlens starting");
    expect(statusBarView({ ...ready, server: "failed" }, 0)).toMatchObject({ text: "$(error) Turnlens stopped", background: "error" });
  });
});
