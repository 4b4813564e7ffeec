// What `turnlens/timeline` answers for a test's last report: each run's timeline (core's model)
// and its diagram, drawn here once so every client shows the same picture in its own colours, and
// as Mermaid text for a client that draws none (or a pull request to paste it into).
import type { TestReport } from "../../core/execution/report.ts";
import { buildTimeline } from "../../core/testing/timeline.ts";
import { TIMELINE_CSS } from "../../core/testing/timelineHtml.ts";
import { renderMermaid } from "../../core/testing/timelineMermaid.ts";
import { renderTimelineSvg } from "../../core/testing/timelineSvg.ts";
import type { TimelineModel, TimelineResult } from "../protocol.ts";

export function timelineResult(test: string, report: TestReport): TimelineResult {
  return {
    test,
    name: report.path.join(" › "),
    status: report.status,
    runs: report.runs.map((trace) => {
      const built = buildTimeline(trace, report.status !== "failed");
      // The wire type is core's, field for field: this assignment is where tsc says so.
      const timeline: TimelineModel = built;
      return { timeline, svg: renderTimelineSvg(built), mermaid: renderMermaid(built) };
    }),
    style: TIMELINE_CSS,
  };
}
