// checkLenses: the code lenses of a fixture are exactly its `lens[command]: title` annotations
// (`lens: title` for a lens that is a label, with no command), each line's in the order shown.
import type { CodeLens } from "vscode-languageserver-protocol";
import { compareAnnotations, type CheckScope } from "./compareAnnotations.ts";
import type { OpenedFixture } from "./openFixture.ts";

export interface LensScope extends CheckScope {
  /** Applied to each title before comparing: a duration made constant, say. */
  normalize?: (title: string) => string;
}

/** The fixture's code lenses (in the scope) are the annotated ones. */
export async function checkLenses(opened: OpenedFixture, scope: LensScope = {}): Promise<void> {
  const lenses = await opened.server.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: opened.uri } });
  const normalize = scope.normalize ?? ((title: string) => title);
  const actual = lenses.map((lens) => {
    const command = lens.command?.command ?? "";
    return { range: lens.range, tag: command === "" ? "lens" : `lens[${command}]`, text: normalize(lens.command?.title ?? "(no command)") };
  });
  compareAnnotations(opened.fixture, { check: "checkLenses", isMine: (annotation) => annotation.tag === "lens" || annotation.tag.startsWith("lens["), actual }, scope);
}
