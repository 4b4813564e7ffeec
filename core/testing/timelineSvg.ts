// The run timeline drawn as one SVG sequence diagram: a column per lane, a row per moment in step
// order, boxes for turns, arrows for messages, glyphs for marks, a band where the virtual clock
// moved. It names colours by class only, so the HTML file and the VS Code webview each style it.

import { markedWords } from "./outcomeWords.ts";
import { boxTitle, durationText, offsetText, type Timeline, type TimelineBox, type TimelineMark } from "./timeline.ts";
import type { SourceSite } from "./trace.ts";

const LANE_WIDTH = 176;
const WORKFLOW_WIDTH = 190;
const MARGIN = 16;
const HEADER = 46;
const ROW = 26;
const BOX_ROW = 58;
const BAND = 24;
const BOX_WIDTH = 156;

interface Row {
  top: number;
  height: number;
}

/** The diagram as an `<svg>` element's text; each box is a `g.box` with `data-box` its index. */
export function renderTimelineSvg(timeline: Timeline): string {
  const laneX = new Map<string, number>();
  let x = MARGIN;
  for (const lane of timeline.lanes) {
    const width = lane.kind === "workflow" ? WORKFLOW_WIDTH : LANE_WIDTH;
    laneX.set(lane.id, x + (lane.kind === "workflow" ? 74 : width / 2));
    x += width;
  }
  const width = x + MARGIN;

  // Every step something happens at, with its virtual time; a box's start needs room for its text.
  const steps = new Map<number, { at: number; height: number }>();
  const use = (moment: { at: number; step: number }, height: number) => {
    const known = steps.get(moment.step);
    steps.set(moment.step, { at: moment.at, height: Math.max(height, known?.height ?? 0) });
  };
  for (const box of timeline.boxes) {
    use(box.started, BOX_ROW);
    if (box.ended) use(box.ended, ROW);
  }
  for (const arrow of timeline.arrows) {
    use(arrow.sent, ROW);
    if (arrow.reached) use(arrow.reached, ROW);
  }
  for (const mark of timeline.marks) use(mark.at, ROW);
  const rows = new Map<number, Row>();
  const bands: Array<{ y: number; at: number }> = [];
  let y = HEADER + 10;
  let now = 0;
  for (const [step, { at, height }] of [...steps].sort((a, b) => a[0] - b[0])) {
    if (at !== now) {
      bands.push({ y, at });
      y += BAND;
      now = at;
    }
    rows.set(step, { top: y, height });
    y += height;
  }
  const bottom = y + 10;
  const height = bottom + MARGIN;
  const middle = (step: number) => {
    const row = rows.get(step)!;
    return row.top + Math.min(row.height, ROW) / 2 + (row.height > ROW ? 4 : 0);
  };

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${attribute(`Timeline of ${timeline.workflow}`)}">`,
    '<defs><marker id="tl-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="arrowhead" d="M0,0 L10,5 L0,10 z"/></marker></defs>',
  );
  // Lanes: a header and a lifeline each.
  for (const lane of timeline.lanes) {
    const center = laneX.get(lane.id)!;
    const name = lane.kind === "workflow" ? timeline.workflow : lane.id;
    const kind = lane.kind === "workflow" ? "workflow" : lane.kind;
    parts.push(
      `<g class="lane lane-${lane.kind}" data-lane="${attribute(lane.id)}">`,
      `<line class="lifeline" x1="${center}" y1="${HEADER}" x2="${center}" y2="${bottom}"/>`,
      `<rect class="lane-head" x="${center - 70}" y="${MARGIN - 6}" width="140" height="${HEADER - MARGIN}" rx="4"/>`,
      `<text class="lane-name" x="${center}" y="${MARGIN + 10}" text-anchor="middle">${escape(cut(name, 20))}</text>`,
      `<text class="lane-kind" x="${center}" y="${MARGIN + 24}" text-anchor="middle">${kind}</text>`,
      "</g>",
    );
  }
  for (const band of bands) {
    parts.push(
      `<g class="band"><line x1="${MARGIN}" y1="${band.y + BAND / 2}" x2="${width - MARGIN}" y2="${band.y + BAND / 2}"/>`,
      `<text x="${MARGIN + 4}" y="${band.y + BAND / 2 - 3}">${escape(`${offsetText(band.at)} on the virtual clock`)}</text></g>`,
    );
  }

  const workflowX = laneX.get("workflow")!;
  // The workflow's asks and the turns' returns, beneath the boxes.
  for (const box of timeline.boxes) {
    const center = laneX.get(box.lane)!;
    const left = center - BOX_WIDTH / 2;
    if (box.kind !== "wake") {
      const top = rows.get(box.started.step)!.top + 12;
      parts.push(`<line class="ask" x1="${workflowX}" y1="${top}" x2="${left}" y2="${top}" marker-end="url(#tl-head)"/>`);
    }
    if (box.ended && box.kind !== "wake") {
      const end = middle(box.ended.step);
      parts.push(`<line class="return outcome-${box.outcome} tone-${box.told.tone}" x1="${left}" y1="${end}" x2="${workflowX}" y2="${end}" marker-end="url(#tl-head)"/>`);
    }
  }
  // Boxes, nested by how many boxes of the same lane are still open (a turn awaiting a reply and its wake).
  const open = new Map<string, Array<{ end: number }>>();
  for (const box of timeline.boxes) {
    const center = laneX.get(box.lane)!;
    const stack = (open.get(box.lane) ?? []).filter((held) => held.end > box.started.step);
    const depth = stack.length;
    const endStep = box.ended?.step ?? Number.POSITIVE_INFINITY;
    stack.push({ end: endStep });
    open.set(box.lane, stack);
    const top = rows.get(box.started.step)!.top + 3;
    const end = box.ended ? middle(box.ended.step) + 5 : bottom;
    const left = center - BOX_WIDTH / 2 + depth * 10;
    const boxWidth = BOX_WIDTH - depth * 10;
    parts.push(
      `<g class="box kind-${box.kind} outcome-${attribute(box.outcome)} tone-${box.told.tone}" data-box="${box.index}" tabindex="0" role="button" aria-label="${attribute(boxTitle(box))}">`,
      `<title>${escape(boxTooltip(box))}</title>`,
      `<rect x="${left}" y="${top}" width="${boxWidth}" height="${Math.max(end - top, 50)}" rx="4"${box.ended ? "" : ' class="open"'}/>`,
      `<text class="box-title" x="${left + 6}" y="${top + 14}">${escape(cut(boxTitle(box), 25))}</text>`,
      `<text class="box-outcome" x="${left + 6}" y="${top + 29}">${escape(cut(outcomeLine(box), 26))}</text>`,
      `<text class="box-prompt" x="${left + 6}" y="${top + 44}">${escape(cut(box.prompt, 26))}</text>`,
      "</g>",
    );
  }
  for (const arrow of timeline.arrows) {
    const from = laneX.get(arrow.from)!;
    const to = laneX.get(arrow.to)!;
    const y1 = middle(arrow.sent.step);
    const y2 = arrow.reached ? middle(arrow.reached.step) : y1;
    const direction = to > from ? 1 : -1;
    const x1 = from + direction * (BOX_WIDTH / 2 - 4);
    const x2 = to - direction * (BOX_WIDTH / 2 - 4);
    const failed = arrow.end === "failed" || arrow.end === "undelivered";
    const kind = arrow.kind === "question" ? "asks" : arrow.kind === "reply" ? `replies to ${arrow.answers}` : "";
    const label = `${arrow.message}${kind ? ` ${kind}` : ""}: ${arrow.text}`;
    parts.push(
      `<g class="arrow kind-${arrow.kind}${failed ? " failed" : ""}" data-message="${attribute(arrow.message)}">`,
      `<title>${escape(`${label}\n${arrow.from} → ${arrow.to} · ${arrow.end}${arrow.reason ? ` (${arrow.reason})` : ""}`)}</title>`,
      `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" marker-end="url(#tl-head)"/>`,
      `<text x="${(x1 + x2) / 2}" y="${Math.min(y1, y2) - 4}" text-anchor="middle">${escape(cut(label, Math.max(30, Math.floor(Math.abs(x2 - x1) / 6))))}</text>`,
      "</g>",
    );
  }
  for (const mark of timeline.marks) {
    const center = laneX.get(mark.lane)!;
    const at = middle(mark.at.step);
    parts.push(
      `<g class="mark kind-${mark.kind}"><title>${escape(markTooltip(mark))}</title>`,
      `${glyph(mark.kind, center, at)}`,
      `<text x="${center + 10}" y="${at + 4}">${escape(cut(`${MARK_NAMES[mark.kind]} ${mark.text}`, 46))}</text></g>`,
    );
  }
  parts.push("</svg>");
  return parts.join("");
}

const MARK_NAMES: Record<TimelineMark["kind"], string> = {
  event: "event",
  "timer-set": "timer",
  "timer-fired": "fired",
  "timer-cancelled": "cancelled",
  decision: "decide",
  parked: "parked",
  ended: "ended",
};

function glyph(kind: TimelineMark["kind"], x: number, y: number): string {
  if (kind === "decision") return `<path class="glyph" d="M${x},${y - 6} L${x + 6},${y} L${x},${y + 6} L${x - 6},${y} z"/>`;
  if (kind === "parked" || kind === "ended") return `<rect class="glyph" x="${x - 5}" y="${y - 5}" width="10" height="10"/>`;
  if (kind === "event") return `<path class="glyph" d="M${x - 5},${y + 6} L${x},${y - 6} L${x + 5},${y + 6} z"/>`;
  return `<circle class="glyph" cx="${x}" cy="${y}" r="5"/>`;
}

/** A box's outcome in the table's words (outcomeWords.ts) and how long it took: `✓ no answer, as scripted · 2 s`. */
export function outcomeLine(box: TimelineBox): string {
  return `${markedWords(box.told)} · ${box.durationMs === undefined ? "never ended" : durationText(box.durationMs)}`;
}

function siteText(site: SourceSite): string {
  return `${site.file.split(/[\\/]/).pop()}:${site.line}:${site.column}`;
}

function boxTooltip(box: TimelineBox): string {
  const lines = [`${box.lane} ${boxTitle(box)}: ${box.prompt}`, outcomeLine(box) + (box.reason ? ` (${box.reason})` : ""), `at ${offsetText(box.started.at)}`];
  if (box.answer) lines.push(`answer: ${box.answer}`);
  if (box.entry) lines.push(`met by ${box.entry.key}${box.entry.index === null ? "" : `[${box.entry.index}]`}${box.entry.site ? ` (${siteText(box.entry.site)})` : ""}`);
  if (box.askedAt) lines.push(`asked at ${siteText(box.askedAt)}`);
  return lines.join("\n");
}

function markTooltip(mark: TimelineMark): string {
  return `${MARK_NAMES[mark.kind]}: ${mark.text}${mark.detail ? `\n${mark.detail}` : ""}\nat ${offsetText(mark.at.at)}`;
}

function cut(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

function escape(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === "&" ? "&amp;" : char === "<" ? "&lt;" : "&gt;"));
}

function attribute(text: string): string {
  return escape(text).replace(/"/g, "&quot;");
}
