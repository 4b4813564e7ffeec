// The run timeline: a RunTrace as a sequence of lanes (the workflow, each agent, each participant),
// boxes (turns and compactions), arrows (messages and replies) and marks (events, timers,
// decisions, parking, the ending), each placed at its moment on the run's virtual clock. Pure data;
// timelineMermaid.ts, timelineSvg.ts and timelineHtml.ts draw it.

import { endedAs, turnEnd, type Ended } from "./outcomeWords.ts";
import { firstLine } from "../workflow/json.ts";
import type { MomentTrace, RunTrace, SourceSite, SpanTrace } from "./trace.ts";

export interface TimelineLane {
  /** The agent's or participant's key; `workflow` for the workflow's own lane. */
  id: string;
  kind: "workflow" | "agent" | "participant";
}

/** One turn (a nudge and a wake are turns too) or one compaction, on its agent's lane. */
export interface TimelineBox {
  /** Its index among the timeline's boxes, which a renderer's click names. */
  index: number;
  lane: string;
  /** `turn` the workflow asked, its `nudge`, a `wake` for a message, or a `compaction`. */
  kind: "turn" | "nudge" | "wake" | "compaction";
  /** The turn's number (a wake keeps its agent's last), or the compaction's among its agent's. */
  n: number;
  label?: string;
  stage?: string;
  /** The first line of the prompt (a wake's: the message; a compaction's: its focus). */
  prompt: string;
  /** The engine's outcome kind (an identifier: `cancelled` for a refused answer too). */
  outcome: string;
  /** What it ended as, in the words of outcomeWords.ts (`no answer, as scripted`, `refused`), its mark and its tone (its colour). */
  told: Ended;
  reason?: string;
  /** The answer, as one short line of JSON, when it answered. */
  answer?: string;
  started: MomentTrace;
  ended?: MomentTrace;
  /** Milliseconds on the virtual clock from start to end; absent for one that never ended. */
  durationMs?: number;
  /** The script entry that met it, as `key[index]`, and where that `answer(...)` was written. */
  entry?: { key: string; index: number | null; site?: SourceSite };
  /** Where the workflow asked it: its `agent.run(...)` (for a wake, the sender's). */
  askedAt?: SourceSite;
  /** For a wake: the id of the message that woke the agent (its arrow's `message`). */
  cause?: string;
}

/** A message or a reply between two lanes. */
export interface TimelineArrow {
  kind: "message" | "question" | "reply";
  /** The message's id in the run: `m1`, `m2`, … */
  message: string;
  from: string;
  to: string;
  text: string;
  /** How it ended: replied, delivered, failed, undelivered, pending. */
  end: string;
  reason?: string;
  /** For a reply: the question it answers. */
  answers?: string;
  sent: MomentTrace;
  /** When its recipient was shown it; absent when it never was. */
  reached?: MomentTrace;
}

/** Something that happened at one moment on a lane. */
export interface TimelineMark {
  lane: string;
  kind: "event" | "timer-set" | "timer-fired" | "timer-cancelled" | "decision" | "parked" | "ended";
  at: MomentTrace;
  /** What it was, in a few words: the event's name, the timer's label, the decision's key, the ending. */
  text: string;
  /** More of it: a timer's due time, a decision's answers, an ending's reason. */
  detail?: string;
  /** Where the workflow asked it, for a decision. */
  askedAt?: SourceSite;
}

export interface Timeline {
  workflow: string;
  /** Where `testWorkflow(...)` was called. */
  site?: SourceSite;
  /** The run's virtual clock at its start, as an ISO time. */
  start?: string;
  /** How the run ended. */
  ending: string;
  /** Milliseconds on the virtual clock from the start to the end. */
  durationMs: number;
  lanes: TimelineLane[];
  boxes: TimelineBox[];
  arrows: TimelineArrow[];
  marks: TimelineMark[];
}

const WORKFLOW_LANE = "workflow";
const NO_MOMENT: MomentTrace = { at: 0, step: 0 };

/** The timeline of one run's trace. A trace with no moments (refused before it ran) has its turns at step 0. */
/** `passed`: whether the run's test passed (false unless told): ✗ is only for what went wrong, unscripted, in a failing test. */
export function buildTimeline(trace: RunTrace, passed = false): Timeline {
  const moments = trace.moments;
  const lanes: TimelineLane[] = [{ id: WORKFLOW_LANE, kind: "workflow" }];
  const participants = new Set((trace.participants ?? []).map((call) => call.participant));
  const laneOf = (id: string): string => {
    if (!lanes.some((lane) => lane.id === id)) lanes.push({ id, kind: participants.has(id) ? "participant" : "agent" });
    return id;
  };
  const spanOf = (list: SpanTrace[] | undefined, index: number): SpanTrace => list?.[index] ?? { started: NO_MOMENT };

  const boxes: TimelineBox[] = [];
  const pending: Array<Omit<TimelineBox, "index">> = [];
  (trace.turns ?? []).forEach((turn, index) => {
    const span = spanOf(moments?.turns, index);
    const box: Omit<TimelineBox, "index"> = {
      lane: turn.agent,
      kind: turn.cause ? "wake" : turn.nudge ? "nudge" : "turn",
      n: turn.n,
      prompt: firstLine(turn.prompt, 120),
      outcome: turn.outcome,
      told: endedAs("turn", turnEnd(turn), { scripted: turn.scripted === true, passed }),
      ...spanFields(span),
    };
    if (turn.label !== undefined) box.label = turn.label;
    if (turn.stage !== undefined) box.stage = turn.stage;
    if (turn.refused !== undefined) box.reason = turn.refused;
    else if (turn.reason !== undefined) box.reason = turn.reason;
    if (turn.outcome === "answered" && turn.answer !== undefined) box.answer = shortJson(turn.answer);
    if (turn.match) box.entry = { key: turn.match.key, index: turn.match.index, ...(turn.match.site ? { site: turn.match.site } : {}) };
    if (turn.askedAt) box.askedAt = turn.askedAt;
    if (turn.cause) box.cause = turn.cause.id;
    pending.push(box);
  });
  (trace.compactions ?? []).forEach((compaction, index) => {
    const box: Omit<TimelineBox, "index"> = {
      lane: compaction.agent,
      kind: "compaction",
      n: compaction.n,
      prompt: firstLine(compaction.focus, 120),
      outcome: compaction.outcome,
      told: endedAs("turn", turnEnd(compaction), { scripted: compaction.scripted === true, passed }),
      ...spanFields(spanOf(moments?.compactions, index)),
    };
    if (compaction.reason !== undefined) box.reason = compaction.reason;
    if (compaction.outcome === "answered" && compaction.answer !== undefined) box.answer = shortJson(compaction.answer);
    if (compaction.match) box.entry = { key: compaction.match.key, index: compaction.match.index, ...(compaction.match.site ? { site: compaction.match.site } : {}) };
    pending.push(box);
  });
  // Lanes in the order things first happened on them, so a reader's eye follows the run left to right.
  pending.sort((a, b) => a.started.step - b.started.step);
  const arrows: TimelineArrow[] = (trace.messages ?? []).map((message, index) => {
    const span = moments?.messages[index];
    const arrow: TimelineArrow = {
      kind: message.answers !== undefined ? "reply" : message.awaitReply ? "question" : "message",
      message: message.id,
      from: message.from,
      to: message.to,
      text: firstLine(message.text, 120),
      end: message.end,
      sent: span?.started ?? NO_MOMENT,
    };
    if (message.reason !== undefined) arrow.reason = message.reason;
    if (message.answers !== undefined) arrow.answers = message.answers;
    if (span?.reached) arrow.reached = span.reached;
    return arrow;
  });
  const firstSteps: Array<{ step: number; lane: string }> = [
    ...pending.map((box) => ({ step: box.started.step, lane: box.lane })),
    ...arrows.flatMap((arrow) => [
      { step: arrow.sent.step, lane: arrow.from },
      { step: arrow.sent.step + 0.5, lane: arrow.to },
    ]),
  ].sort((a, b) => a.step - b.step);
  for (const { lane } of firstSteps) laneOf(lane);
  for (const participant of participants) laneOf(participant);
  pending.forEach((box, index) => boxes.push({ index, ...box }));

  const marks: TimelineMark[] = [];
  for (const timer of moments?.timers ?? []) {
    marks.push({ lane: WORKFLOW_LANE, kind: "timer-set", at: timer.started, text: timer.label, detail: `due at ${offsetText(timer.due)} (${timer.kind})` });
    if (timer.ended && timer.state !== "pending") {
      marks.push({ lane: WORKFLOW_LANE, kind: timer.state === "fired" ? "timer-fired" : "timer-cancelled", at: timer.ended, text: timer.label });
    }
  }
  for (const event of moments?.events ?? []) {
    // A participant's `{key}:reply` answering a question is drawn as the reply's arrow.
    const [key, suffix] = splitEvent(event.name);
    if (suffix === "reply" && participants.has(key) && arrows.some((arrow) => arrow.kind === "reply" && arrow.from === key && arrow.sent.step >= event.at.step)) continue;
    marks.push({ lane: WORKFLOW_LANE, kind: "event", at: event.at, text: event.name, detail: event.eventId });
  }
  (trace.decisions ?? []).forEach((decision, index) => {
    const span = moments?.decisions[index];
    const answers = decision.answers ? Object.entries(decision.answers).map(([id, reading]) => `${id}: ${reading.answer}`) : [];
    const mark: TimelineMark = {
      lane: WORKFLOW_LANE,
      kind: "decision",
      at: span?.started ?? NO_MOMENT,
      text: decision.key,
      detail: decision.answered ? answers.join(", ") : decision.error ? `error: ${decision.error}` : "no answers",
    };
    if (decision.askedAt) mark.askedAt = decision.askedAt;
    marks.push(mark);
  });
  if (moments?.parked) {
    const until = moments.parked.until;
    marks.push({
      lane: WORKFLOW_LANE,
      kind: "parked",
      at: moments.parked.at,
      text: moments.parked.label,
      ...(until !== undefined ? { detail: `until ${offsetText(until)}` } : {}),
    });
  }
  const ending = trace.ending?.kind ?? "not run";
  if (moments) {
    const reason = trace.ending?.reason;
    marks.push({ lane: WORKFLOW_LANE, kind: "ended", at: moments.ended, text: ending, ...(reason ? { detail: reason } : {}) });
  }
  marks.sort((a, b) => a.at.step - b.at.step);

  const timeline: Timeline = { workflow: trace.workflow, ending, durationMs: moments?.ended.at ?? 0, lanes, boxes, arrows, marks };
  if (trace.site) timeline.site = trace.site;
  if (moments) timeline.start = moments.start;
  return timeline;
}

/** A box as people name it: `#2 nudge [label] (stage plan)`, `compaction #1`. */
export function boxTitle(box: TimelineBox): string {
  let title = box.kind === "compaction" ? `compaction #${box.n}` : `#${box.n}`;
  if (box.kind === "nudge") title += " nudge";
  if (box.kind === "wake") title += " wake";
  if (box.label !== undefined) title += ` [${box.label}]`;
  if (box.stage !== undefined) title += ` (stage ${box.stage})`;
  return title;
}

function spanFields(span: SpanTrace): Pick<TimelineBox, "started" | "ended" | "durationMs"> {
  return span.ended ? { started: span.started, ended: span.ended, durationMs: span.ended.at - span.started.at } : { started: span.started };
}

function splitEvent(name: string): [string, string | undefined] {
  const colon = name.lastIndexOf(":");
  return colon < 0 ? [name, undefined] : [name.slice(0, colon), name.slice(colon + 1)];
}

function shortJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/** A time on the virtual clock as people read an offset from the run's start: `+0 ms`, `+2d`, `+2d 3h`, `+1h 30m`, `+1.5 s`. */
export function offsetText(milliseconds: number): string {
  return `+${durationText(milliseconds)}`;
}

/** A span of virtual time in its two largest units: `0 ms`, `250 ms`, `1.5 s`, `2m 5s`, `1h 30m`, `2d 3h`. */
export function durationText(milliseconds: number): string {
  const ms = Math.max(0, Math.round(milliseconds));
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${+(ms / 1_000).toFixed(1)} s`;
  const units: Array<[string, number]> = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1_000],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
    if (parts.length === 2) break;
  }
  return parts.filter((part, index) => index === 0 || !part.startsWith("0")).join(" ");
}
