// Open, change, save and close of test documents, fed to the state and the scheduler.
import type { Server } from "../server.ts";

export function register(server: Server): void {
  const { state, scheduler, workers } = server;
  server.onInitialize((_params, result) => {
    // Incremental sync; saves are reported (onSave mode) without their text.
    result.capabilities.textDocumentSync = { openClose: true, change: 2, save: { includeText: false } };
  });
  // TextDocuments fires onDidChangeContent for the open too; a document without state is an open.
  state.documents.onDidChangeContent(
    server.guardNotification("didChange", ({ document }) => {
      if (state.get(document.uri)) {
        scheduler.edited(document.uri, "change");
        return;
      }
      if (!state.open(document.uri)) return;
      state.onDidOpen.fire(document.uri);
      if (state.trusted) workers.warm();
      scheduler.edited(document.uri, "open");
    }),
  );
  state.documents.onDidSave(server.guardNotification("didSave", ({ document }) => scheduler.edited(document.uri, "save")));
  state.documents.onDidClose(
    server.guardNotification("didClose", ({ document }) => {
      if (!state.get(document.uri)) return;
      scheduler.close(document.uri);
      state.close(document.uri);
      state.onDidClose.fire(document.uri);
    }),
  );
}
