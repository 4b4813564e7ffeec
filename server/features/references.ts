// `textDocument/references` in a workflow file: at a call some test reached, the script entries that
// met its turns (workflowFiles/workflowViews.ts). A test file has none to give.
import type { ReferenceParams } from "vscode-languageserver";
import type { Server } from "../server.ts";

export function register(server: Server): void {
  server.onInitialize((_params, result) => {
    result.capabilities.referencesProvider = true;
  });
  server.connection.onReferences(server.guardRequest("references", (params: ReferenceParams) => server.workflowViews.references(params)));
}
