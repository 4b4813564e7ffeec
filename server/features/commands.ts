// `workspace/executeCommand`: run a file, run one test, cancel runs, write a test from a run folder (recordRun.ts),
// update one test's snapshots (snapshotUpdates.ts, answered once written). A run command answers at
// once; the run reports through diagnostics, lenses and progress. Every command but cancelRuns runs the
// workspace's code: in an untrusted workspace each answers with its refusal (NOT_TRUSTED) instead.
import type { ExecuteCommandParams } from "vscode-languageserver";
import { Commands } from "../protocol.ts";
import type { Server } from "../server.ts";
import { readRecordArguments, recordRun } from "../recordRun.ts";
import { readUpdateArguments, updateSnapshot } from "../snapshotUpdates.ts";
import { NOT_TRUSTED } from "./trust.ts";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  server.onInitialize((_params, result) => {
    result.capabilities.executeCommandProvider = { commands: Object.values(Commands) };
  });
  connection.onExecuteCommand(
    server.guardRequest("executeCommand", (params: ExecuteCommandParams): unknown => {
      const [uri, path] = (params.arguments ?? []) as [string | undefined, string[] | undefined];
      const notStarted = { started: false, refused: NOT_TRUSTED };
      switch (params.command) {
        case Commands.runFile:
          if (!state.trusted) return notStarted;
          return { started: typeof uri === "string" && scheduler.request(uri, { runIds: [] }) };
        case Commands.runTest:
          if (typeof uri !== "string" || !Array.isArray(path)) throw new Error(`${Commands.runTest} takes [uri, path]`);
          if (!state.trusted) return notStarted;
          return { started: scheduler.request(uri, { runIds: [], paths: [path] }) };
        case Commands.checkAssertions:
          if (typeof uri !== "string" || !Array.isArray(path)) throw new Error(`${Commands.checkAssertions} takes [uri, path]`);
          if (!state.trusted) return notStarted;
          return { started: server.assertionChecks.start(uri, path) };
        case Commands.cancelRuns:
          for (const document of typeof uri === "string" ? [uri] : state.all().map((d) => d.uri)) scheduler.cancel(document);
          return { cancelled: true };
        case Commands.recordRun:
          // The replay imports the workflow file: the workspace's code.
          if (!state.trusted) return { ok: false, turns: 0, events: 0, decisions: 0, partings: [], error: `${NOT_TRUSTED} (turnlens.recordRun replays the workflow)` };
          return recordRun(readRecordArguments(params.arguments?.[0]), server.env.timer);
        case Commands.updateSnapshot: {
          const { uri: document, path: test } = readUpdateArguments(params.arguments);
          if (!state.trusted) return { ok: false, refused: NOT_TRUSTED };
          return updateSnapshot(server, document, test);
        }
        default:
          throw new Error(`unknown command ${params.command}`);
      }
    }),
  );
}
