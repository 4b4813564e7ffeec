// `turnlens/timeline`: a test's last report (testReports.ts) as each run's timeline and its SVG
// (views/timelineView.ts), for the client's timeline panel.
import { TestId, TimelineRequest, type TimelineParams } from "../protocol.ts";
import type { Server } from "../server.ts";
import { timelineResult } from "../views/timelineView.ts";

export function register(server: Server): void {
  server.connection.onRequest(
    TimelineRequest.type,
    server.guardRequest(TimelineRequest.method, (params: TimelineParams) => {
      const report = server.testReports.ofDocument(TestId.parse(params.test).uri)?.get(params.test);
      return report ? timelineResult(params.test, report) : null;
    }),
  );
}
