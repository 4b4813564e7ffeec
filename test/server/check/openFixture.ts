// Opens an annotated fixture over the real protocol connection: the server gets the text without
// its annotations, runs it (the open's debounce moved by the manual timer) and publishes diagnostics.
import type { Diagnostic } from "vscode-languageserver-protocol";
import type { TestRunProgressParams } from "../../../server/protocol.ts";
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

/** What is done while the fixture's first run runs: once it started, before it ends. */
export type WhileRunning = (server: TestServer, uri: string) => Promise<void>;

/**
 * Opens `annotated` as the file at `path` (which need not exist) and waits for its first run to
 * end; given `during`, waits for the run to start and does that before waiting for its end.
 */
export async function openFixture(server: TestServer, path: string, annotated: string, during?: WhileRunning): Promise<OpenedFixture> {
  const fixture = parseFixture(annotated);
  if (!during) {
    const { uri, diagnostics } = await server.openAndRun(path, fixture.text);
    return { server, uri, fixture, diagnostics: diagnostics.diagnostics };
  }
  const from = server.received.length;
  const uri = await server.open(path, fixture.text);
  await server.advance(300);
  await server.waitFor<TestRunProgressParams>("turnlens/testRunProgress", (params) => params.uri === uri && params.message.type === "started", from);
  await during(server, uri);
  const published = await server.runEnded(uri, from);
  return { server, uri, fixture, diagnostics: published?.diagnostics ?? [] };
}
