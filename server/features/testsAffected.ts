// `turnlens/testsAffected`: the test files not open whose last run read a file that changed (on
// disk or in a buffer), gathered by the scheduler over the debounce, for the client's continuous run.
import { pathToFileURL } from "node:url";
import { TestsAffectedNotification } from "../protocol.ts";
import type { Server } from "../server.ts";

export function register(server: Server): void {
  server.scheduler.onClosedTestsAffected.event(
    server.guardNotification("tests affected", ({ tests, changed }: { tests: string[]; changed: string[] }) => {
      const toUri = (file: string) => pathToFileURL(file).href;
      server.forget("testsAffected", server.connection.sendNotification(TestsAffectedNotification.type, { tests: tests.map(toUri), changed: changed.map(toUri) }));
    }),
  );
}
