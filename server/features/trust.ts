// Workspace trust: a client that does not trust the workspace says so in initializationOptions or
// with `turnlens/workspaceTrust`; then no user code runs (static diagnostics still work), and every
// command that would run it is refused with NOT_TRUSTED. Gaining trust runs the open documents;
// losing it stops every run and worker. Before `initialize` trust is unknown, and nothing runs.
import type { InitializationOptions } from "../protocol.ts";
import { WorkspaceTrustNotification } from "../protocol.ts";
import type { Server } from "../server.ts";

/** What every request that would run the workspace's code answers in an untrusted workspace. */
export const NOT_TRUSTED = "the workspace is not trusted, so Turnlens runs none of its code";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  server.onInitialize((params) => {
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    state.trusted = options.workspaceTrusted !== false;
  });
  connection.onNotification(
    WorkspaceTrustNotification.type,
    server.guardNotification(WorkspaceTrustNotification.method, (params) => {
      const trusted = params.trusted !== false;
      if (trusted === state.trusted) return;
      state.trusted = trusted;
      server.log.info(trusted ? "the workspace is trusted: tests run" : "the workspace is not trusted: no tests run");
      if (!trusted) scheduler.stopAll();
      else for (const document of state.all()) scheduler.edited(document.uri, "open");
    }),
  );
}
