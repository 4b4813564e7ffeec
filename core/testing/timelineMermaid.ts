// The run timeline as Mermaid sequence-diagram text, for what renders Mermaid (GitHub, a pull
// request's description): `turnlens test --timeline` writes it beside each HTML page as Markdown,
// and `turnlens/timeline` answers it with the SVG. Not in the editor's text views, which show it raw.

import { markedWords } from "./outcomeWords.ts";
import { boxTitle, durationText, offsetText, type Timeline, type TimelineArrow, type TimelineBox, type TimelineMark } from "./timeline.ts";

type Step = { step: number; order: number; lines: (ids: Map<string, string>) => string[] };

/** `sequenceDiagram` text, one statement a line, ending in a newline. */
export function renderMermaid(timeline: Timeline): string {
  const ids = new Map(timeline.lanes.map((lane, index) => [lane.id, lane.kind === "workflow" ? "workflow" : `L${index}`]));
  const lines = ["sequenceDiagram"];
  for (const lane of timeline.lanes) {
    const id = ids.get(lane.id)!;
    if (lane.kind === "workflow") lines.push(`  participant workflow as ${text(timeline.workflow)} (workflow)`);
    else if (lane.kind === "participant") lines.push(`  actor ${id} as ${text(lane.id)}`);
    else lines.push(`  participant ${id} as ${text(lane.id)}`);
  }
  const steps: Step[] = [];
  for (const box of timeline.boxes) {
    const sender = timeline.arrows.find((arrow) => arrow.message === box.cause)?.from;
    steps.push({ step: box.started.step, order: 1, lines: (lanes) => boxStart(box, lanes.get(box.lane)!, sender) });
    const ended = box.ended;
    if (ended) steps.push({ step: ended.step, order: 0, lines: (lanes) => boxEnd(box, lanes.get(box.lane)!) });
  }
  for (const arrow of timeline.arrows) steps.push({ step: arrow.sent.step, order: 2, lines: (lanes) => [arrowLine(arrow, lanes)] });
  for (const mark of timeline.marks) steps.push({ step: mark.at.step, order: 3, lines: (lanes) => [markLine(mark, lanes.get(mark.lane)!)] });
  steps.sort((a, b) => a.step - b.step || a.order - b.order);

  // A note where the virtual clock moved, so a two-day wait reads as one.
  const times = new Map<number, number>();
  for (const box of timeline.boxes) {
    times.set(box.started.step, box.started.at);
    if (box.ended) times.set(box.ended.step, box.ended.at);
  }
  for (const arrow of timeline.arrows) times.set(arrow.sent.step, arrow.sent.at);
  for (const mark of timeline.marks) times.set(mark.at.step, mark.at.at);
  const last = ids.get(timeline.lanes[timeline.lanes.length - 1]!.id)!;
  let now = 0;
  for (const step of steps) {
    const at = times.get(step.step) ?? now;
    if (at !== now) {
      lines.push(`  Note over ${last === "workflow" ? "workflow" : `workflow,${last}`}: ${text(`${offsetText(at)} on the virtual clock`)}`);
      now = at;
    }
    for (const line of step.lines(ids)) lines.push(`  ${line}`);
  }
  return `${lines.join("\n")}\n`;
}

function boxStart(box: TimelineBox, lane: string, sender: string | undefined): string[] {
  if (box.kind === "wake") {
    const by = sender ? `${sender} (${box.cause})` : (box.cause ?? "a message");
    return [`activate ${lane}`, `Note right of ${lane}: ${text(`${boxTitle(box)}, woken by ${by}`)}`];
  }
  return [`workflow->>+${lane}: ${text(`${boxTitle(box)} ${box.prompt}`)}`];
}

function outcomeText(box: TimelineBox): string {
  const detail = box.outcome === "answered" ? (box.answer ? ` ${box.answer}` : "") : box.reason ? ` ${box.reason}` : "";
  return `${markedWords(box.told)}${detail} · ${durationText(box.durationMs ?? 0)}`;
}

function boxEnd(box: TimelineBox, lane: string): string[] {
  if (box.kind === "wake") return [`Note right of ${lane}: ${text(`${boxTitle(box)} ${outcomeText(box)}`)}`, `deactivate ${lane}`];
  return [`${lane}-->>-workflow: ${text(`${boxTitle(box)} ${outcomeText(box)}`)}`];
}

function arrowLine(arrow: TimelineArrow, lanes: Map<string, string>): string {
  const from = lanes.get(arrow.from)!;
  const to = lanes.get(arrow.to)!;
  const failed = arrow.end === "failed" || arrow.end === "undelivered";
  const head = failed ? "-x" : arrow.kind === "reply" ? "-->>" : "->>";
  const kind = arrow.kind === "question" ? " asks" : arrow.kind === "reply" ? ` replies to ${arrow.answers}` : "";
  const end = failed ? ` (${arrow.end}${arrow.reason ? `: ${arrow.reason}` : ""})` : "";
  return `${from}${head}${to}: ${text(`${arrow.message}${kind}: ${arrow.text}${end}`)}`;
}

const MARK_WORDS: Record<TimelineMark["kind"], string> = {
  event: "event",
  "timer-set": "timer set",
  "timer-fired": "timer fired",
  "timer-cancelled": "timer cancelled",
  decision: "decision",
  parked: "parked",
  ended: "ended",
};

function markLine(mark: TimelineMark, lane: string): string {
  return `Note over ${lane}: ${text(`${MARK_WORDS[mark.kind]}: ${mark.text}${mark.detail ? ` · ${mark.detail}` : ""}`)}`;
}

/**
 * Text Mermaid shows as written, on one line. Mermaid ends a statement at `;` and drops a message
 * from a `#` on, and its entity codes (`#35;`) show undecoded in its SVG (Mermaid 11): they are
 * written as look-alikes common fonts have, `♯` (U+266F) and the Greek question mark `;` (U+037E).
 */
function text(value: string): string {
  return value.replace(/\s*\n\s*/g, " ").replace(/[#;]/g, (mark) => (mark === "#" ? "\u266f" : "\u037e"));
}

/** A test's runs as a Markdown page that GitHub renders: a heading, then each run's diagram as a fenced `mermaid` block. */
export function renderMermaidPage(page: { title: string; status: string; file: string; html: string; timelines: readonly Timeline[] }): string {
  const runs = page.timelines.length;
  const lines = [
    `# ${page.title}`,
    "",
    `\`${page.file}\` · ${page.status} · ${runs} \`testWorkflow\` run${runs === 1 ? "" : "s"} (drawn in [${page.html}](${page.html}))`,
    "",
  ];
  page.timelines.forEach((timeline, index) => {
    lines.push(`## Run ${index + 1}: ${timeline.workflow} · ${timeline.ending}`, "", "```mermaid", ...renderMermaid(timeline).trimEnd().split("\n"), "```", "");
  });
  return lines.join("\n");
}
