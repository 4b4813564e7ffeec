// textDocument/completion in a test file: inside `answer(SCHEMA, value)` the schema's property names
// at the cursor's path (required first, with type and description), its enum and literal values,
// true/false, and snippets of a whole object or array item that the schema accepts; the kinds
// after `noAnswer.`; a `decisions` script's keys, question ids and answers (views/completionItems.ts).
// Beside the editor's own TypeScript (the default), none of TypeScript's own items twice: a whole
// value's skeleton, enum values its types do not name, descriptions (docs/language-server.md).
// Schemas come from the runs (server/answerSchemas.ts): the text names a schema, only a run knows what it is.
import type { CompletionList, CompletionParams } from "vscode-languageserver";
import { completionPlaceAt } from "../analysis/completionContext.ts";
import type { Server } from "../server.ts";
import { decisionItems, itemsForSchema, list, noAnswerItems, type Schema } from "../views/completionItems.ts";

export const TRIGGER_CHARACTERS = [".", '"', "'", "{", "[", ":"];

export function register(server: Server): void {
  const { connection, state } = server;
  server.onInitialize((_params, result) => {
    result.capabilities.completionProvider = { triggerCharacters: TRIGGER_CHARACTERS, resolveProvider: false };
  });
  connection.onCompletion(
    server.guardRequest("completion", (params: CompletionParams): CompletionList | null => {
      const uri = params.textDocument.uri;
      const document = state.documents.get(uri);
      const file = state.get(uri)?.file;
      if (!document || !file) return null;
      // Under a flood of edits (this document's change still waits), no parse per keystroke: none.
      if (state.changeWaits(uri)) return null;
      let place: ReturnType<typeof completionPlaceAt>;
      try {
        place = completionPlaceAt(file, document.getText(), document.offsetAt(params.position));
      } catch (error) {
        // Text nested past what the parser's (or the walk's) stack holds has nothing to complete.
        if (error instanceof RangeError) return null;
        throw error;
      }
      if (!place) return null;
      const snippets = state.clientCapabilities.textDocument?.completion?.completionItem?.snippetSupport === true;
      // The editor's TypeScript completes the same text: what it offers is not offered twice (the setting's description).
      const besideTypeScript = state.get(uri)?.settings.completionBesideTypeScript ?? true;
      if (place.kind === "noAnswer") return list(noAnswerItems(place.replace, besideTypeScript));
      if (place.kind === "decisions") return list(decisionItems(server.answerSchemas.decisionsOf(uri), place.place, snippets, besideTypeScript));
      const schema = server.answerSchemas.schemaOf(uri, { range: { start: place.entryStart }, schemaText: place.schemaText });
      if (schema === undefined || schema === null || typeof schema !== "object") return null;
      return list(itemsForSchema(schema as Schema, place.place, snippets, besideTypeScript));
    }),
  );
}
