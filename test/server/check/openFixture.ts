// Opens an annotated fixture over the real protocol connection: the server gets the text without
// its annotations, runs it (the open's debounce moved by the manual timer) and publishes diagnostics.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { TestServer } from "../harness.ts";
import { parseFixture, type Fixture } from "./annotations.ts";

/** A fixture open in a server, after its first run. */
export interface OpenedFixture {
  server: TestServer;
  uri: string;
  fixture: Fixture;
  /** The diagnostics published for it once the run ended. */
  diagnostics: Diagnostic[];
}

/** Opens `annotated` as the file at `path` (which need not exist) and waits for its first run to end. */
export async function openFixture(server: TestServer, path: string, annotated: string): Promise<OpenedFixture> {
  const fixture = parseFixture(annotated);
  const { uri, diagnostics } = await server.openAndRun(path, fixture.text);
  return { server, uri, fixture, diagnostics: diagnostics.diagnostics };
}
