// `turnlens/assertionsChecked`: the end of a "Check what this test asserts" (assertionChecks.ts),
// said to the client with its score. Each edit, run and close of a document reaches its checks
// here, so a check's diagnostics and scores go with the text they were made for.
import { AssertionsCheckedNotification, type AssertionsCheckedParams } from "../protocol.ts";
import type { Server } from "../server.ts";

export function register(server: Server): void {
  const { state, scheduler, assertionChecks } = server;
  scheduler.onDidChange.event(server.guardNotification("clear answer checks", ({ uri }: { uri: string }) => assertionChecks.edited(uri)));
  scheduler.onDidStartRun.event(server.guardNotification("clear answer checks", ({ uri }: { uri: string }) => assertionChecks.runStarted(uri)));
  state.onDidClose.event(server.guardNotification("forget answer checks", (uri: string) => assertionChecks.closed(uri)));
  assertionChecks.onDidEnd.event((params: AssertionsCheckedParams) =>
    server.forget("assertionsChecked", server.connection.sendNotification(AssertionsCheckedNotification.type, params)),
  );
}
