// Open, change, save and close of test documents, fed to the state and the scheduler; of any other
// document (a workflow, a helper), fed to the scheduler as a change of what the runs that read it read.
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";

export function register(server: Server): void {
  const { state, scheduler, workers } = server;
  /** Open documents that are not test documents: their first content is their open. */
  const otherDocuments = new Set<string>();
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
      const file = fileOf(document.uri);
      if (otherDocuments.has(document.uri)) {
        if (file) scheduler.inputChanged(file, "edit");
        return;
      }
      if (!state.open(document.uri)) {
        otherDocuments.add(document.uri);
        if (file) scheduler.bufferOpened(file, document.getText());
        return;
      }
      state.onDidOpen.fire(document.uri);
      if (state.trusted) workers.warm();
      scheduler.edited(document.uri, "open");
    }),
  );
  state.documents.onDidSave(
    server.guardNotification("didSave", ({ document }) => {
      const file = fileOf(document.uri);
      if (otherDocuments.has(document.uri) && file) scheduler.inputChanged(file, "save");
      else scheduler.edited(document.uri, "save");
    }),
  );
  state.documents.onDidClose(
    server.guardNotification("didClose", ({ document }) => {
      if (otherDocuments.delete(document.uri)) {
        const file = fileOf(document.uri);
        if (file) scheduler.bufferClosed(file, document.getText());
        return;
      }
      if (!state.get(document.uri)) return;
      scheduler.close(document.uri);
      state.close(document.uri);
      state.onDidClose.fire(document.uri);
    }),
  );
}
