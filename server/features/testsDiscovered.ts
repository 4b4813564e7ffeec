// `turnlens/testsDiscovered`: the tree of each open test document's tests (views/testTree.ts), sent
// on open, when an edit settles and when results come, each time it differs from the last sent;
// only to a client that shows a test tree (`experimental.turnlens.testExplorer`, testExplorer.ts).
import { TestsDiscoveredNotification } from "../protocol.ts";
import type { Server } from "../server.ts";
import { testTree } from "../views/testTree.ts";

export function register(server: Server): void {
  const { connection, state, scheduler } = server;
  const lastSent = new Map<string, string>();
  const discover = (uri: string) => {
    if (!state.testExplorer) return;
    const analysis = state.analysis(uri);
    if (!analysis) return;
    const tests = testTree(uri, analysis.model, state.currentResults(uri)?.view.tests);
    const json = JSON.stringify(tests);
    if (lastSent.get(uri) === json) return;
    lastSent.set(uri, json);
    server.forget("testsDiscovered", connection.sendNotification(TestsDiscoveredNotification.type, { textDocument: { uri }, tests }));
  };
  state.onDidOpen.event(server.guardNotification("discover tests", discover));
  scheduler.onDidSettle.event(server.guardNotification("discover tests", ({ uri }: { uri: string }) => discover(uri)));
  state.onDidChangeResults.event(server.guardNotification("discover tests", discover));
  state.onDidClose.event(server.guardNotification("forget discovered tests", (uri: string) => void lastSent.delete(uri)));
}
