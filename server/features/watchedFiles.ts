// Changes on disk (`workspace/didChangeWatchedFiles`, registered dynamically for the project's source
// files, so a `git checkout` or a formatter counts) fed to the scheduler; a project config among them
// is said to the client (testFiles.ts).
import { DidChangeWatchedFilesNotification } from "vscode-languageserver";
import { configFilesAmong } from "./testFiles.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";

/** What a bundle may read: source files and JSON (the runner's esbuild loads them), anywhere in the workspace. */
export const WATCHED_GLOB = "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,json}";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;

  server.onInitialized(
    server.guardNotification("register file watching", async () => {
      if (state.clientCapabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration !== true) return;
      await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: WATCHED_GLOB }] });
    }),
  );

  connection.onDidChangeWatchedFiles(
    server.guardNotification("didChangeWatchedFiles", ({ changes }) => {
      configFilesAmong(server, changes);
      for (const change of changes) {
        const file = fileOf(change.uri);
        // Installed packages are not the project's; an open document's buffer, not its disk, is what runs.
        if (!file || file.includes("/node_modules/") || state.openDocumentOf(file)) continue;
        scheduler.inputChanged(file, "disk");
      }
    }),
  );
}
