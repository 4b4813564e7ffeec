// `window/workDoneProgress` for a run that takes longer than 300 ms (timed with the injected
// timer), for clients that support server-initiated progress.
import { basename } from "node:path";
import type { WorkDoneProgressServerReporter } from "vscode-languageserver";
import type { RunInfo } from "../state.ts";
import { PROGRESS_DELAY_MS } from "../limits.ts";
import type { Server } from "../server.ts";

export function register(server: Server): void {
  const { connection, state, scheduler, env } = server;
  const shown = new Map<RunInfo, { timer: unknown; reporter?: WorkDoneProgressServerReporter; ended: boolean }>();
  scheduler.onDidStartRun.event(
    server.guardNotification("progress start", (run: RunInfo) => {
      if (!state.clientCapabilities.window?.workDoneProgress) return;
      const entry: { timer: unknown; reporter?: WorkDoneProgressServerReporter; ended: boolean } = { timer: undefined, ended: false };
      shown.set(run, entry);
      entry.timer = env.timer.setTimeout(() => {
        server.forget(
          "progress",
          connection.window.createWorkDoneProgress().then(
            (reporter) => {
              if (entry.ended) return reporter.done();
              entry.reporter = reporter;
              reporter.begin("Turnlens", undefined, `running ${basename(state.get(run.uri)?.file ?? run.uri)}`, true);
              reporter.token.onCancellationRequested(() => scheduler.cancel(run.uri));
            },
            (error: unknown) => server.log.debug(`no progress: ${error instanceof Error ? error.message : String(error)}`),
          ),
        );
      }, PROGRESS_DELAY_MS);
    }),
  );
  scheduler.onDidEndRun.event(
    server.guardNotification("progress end", ({ run }: { run: RunInfo }) => {
      const entry = shown.get(run);
      if (!entry) return;
      shown.delete(run);
      entry.ended = true;
      env.timer.clearTimeout(entry.timer);
      entry.reporter?.done();
    }),
  );
}
