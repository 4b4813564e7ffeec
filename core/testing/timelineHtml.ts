// The run timeline as one self-contained HTML file (inline CSS, SVG and script, nothing fetched),
// which `turnlens test --timeline DIR` writes per test: viewable in any browser, attachable to CI.
// A click on a box shows its turn: prompt, answer, the entry that met it and the call that asked it.

import { renderTimelineSvg } from "./timelineSvg.ts";
import type { Timeline } from "./timeline.ts";

/** The colours the diagram's classes read, light and dark by the reader's preference. */
export const TIMELINE_COLORS = `
:root { --tl-fg: #1f2328; --tl-muted: #656d76; --tl-bg: #ffffff; --tl-lane: #f6f8fa; --tl-line: #d0d7de; --tl-box: #ddf4ff;
  --tl-box-line: #0969da; --tl-ok: #1a7f37; --tl-bad: #cf222e; --tl-wait: #9a6700; --tl-arrow: #8250df; --tl-mark: #bf3989; --tl-band: #eaeef2; }
@media (prefers-color-scheme: dark) {
  :root { --tl-fg: #e6edf3; --tl-muted: #8d96a0; --tl-bg: #0d1117; --tl-lane: #161b22; --tl-line: #30363d; --tl-box: #0c2d6b;
    --tl-box-line: #4493f8; --tl-ok: #3fb950; --tl-bad: #f85149; --tl-wait: #d29922; --tl-arrow: #ab7df8; --tl-mark: #f778ba; --tl-band: #21262d; }
}`;

/** How the diagram looks, by class, over the `--tl-*` colours (the webview maps them to the editor's theme). */
export const TIMELINE_CSS = `
svg.timeline { font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--tl-fg); }
svg.timeline text { fill: var(--tl-fg); }
svg.timeline .lane-head { fill: var(--tl-lane); stroke: var(--tl-line); }
svg.timeline .lane-name { font-weight: 600; }
svg.timeline .lane-kind, svg.timeline .band text, svg.timeline .box-prompt { fill: var(--tl-muted); font-size: 10px; }
svg.timeline .lane-participant .lane-head { stroke-dasharray: 4 2; }
svg.timeline .lifeline { stroke: var(--tl-line); stroke-dasharray: 3 3; }
svg.timeline .band line { stroke: var(--tl-muted); stroke-dasharray: 1 3; }
svg.timeline .arrowhead { fill: var(--tl-muted); }
svg.timeline .ask, svg.timeline .return { stroke: var(--tl-muted); }
svg.timeline .return { stroke-dasharray: 4 3; }
svg.timeline .box rect { fill: var(--tl-box); stroke: var(--tl-box-line); }
svg.timeline .box rect.open { stroke-dasharray: 5 3; }
svg.timeline .box { cursor: pointer; outline: none; }
svg.timeline .box:hover rect, svg.timeline .box:focus rect, svg.timeline .box.selected rect { stroke-width: 2.5; }
svg.timeline .box.kind-nudge rect, svg.timeline .box.kind-wake rect { stroke-dasharray: 2 2; }
svg.timeline .box.kind-compaction rect { fill: var(--tl-band); }
svg.timeline .box.tone-ok .box-outcome, svg.timeline .box.tone-scripted .box-outcome { fill: var(--tl-ok); }
svg.timeline .box.tone-failure .box-outcome { fill: var(--tl-bad); }
svg.timeline .box.tone-expected .box-outcome, svg.timeline .box.tone-open .box-outcome { fill: var(--tl-wait); }
svg.timeline .box-title { font-weight: 600; }
svg.timeline .arrow line { stroke: var(--tl-arrow); stroke-width: 1.5; }
svg.timeline .arrow.kind-reply line { stroke-dasharray: 5 3; }
svg.timeline .arrow.failed line { stroke: var(--tl-bad); }
svg.timeline .arrow text { fill: var(--tl-arrow); font-size: 11px; }
svg.timeline .mark .glyph { fill: var(--tl-mark); }
svg.timeline .mark.kind-ended .glyph { fill: var(--tl-muted); }
svg.timeline .mark text, svg.timeline .arrow text { paint-order: stroke; stroke: var(--tl-bg); stroke-width: 3px; stroke-linejoin: round; }
svg.timeline .mark text { font-size: 11px; }`;

/** One test's page: its name, status, and each testWorkflow run's timeline. */
export interface TimelinePage {
  title: string;
  /** `passed`, `failed`, … */
  status: string;
  /** The test file, for the header. */
  file?: string;
  timelines: Timeline[];
}

const PAGE_CSS = `
body { margin: 0; padding: 16px 20px 40px; background: var(--tl-bg); color: var(--tl-fg); font: 13px system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 16px; margin: 0 0 4px; } h2 { font-size: 14px; margin: 20px 0 6px; }
.muted { color: var(--tl-muted); } .passed { color: var(--tl-ok); } .failed { color: var(--tl-bad); }
.diagram { overflow-x: auto; border: 1px solid var(--tl-line); border-radius: 6px; padding: 6px; }
#details { position: sticky; bottom: 0; margin-top: 12px; border: 1px solid var(--tl-line); border-radius: 6px; background: var(--tl-lane); padding: 8px 12px; white-space: pre-wrap; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
a { color: var(--tl-box-line); }
table { border-collapse: collapse; } td, th { padding: 3px 10px; text-align: left; border-bottom: 1px solid var(--tl-line); }`;

// What a click on a box shows; it reads the timelines from the page's JSON, nothing else.
const PAGE_SCRIPT = `
(function () {
  var timelines = JSON.parse(document.getElementById("timeline-data").textContent);
  var details = document.getElementById("details");
  function site(s) { return s ? s.file + ":" + s.line + ":" + s.column : "(not known)"; }
  function show(run, index, element) {
    var box = timelines[run].boxes[index];
    document.querySelectorAll(".box.selected").forEach(function (other) { other.classList.remove("selected"); });
    element.classList.add("selected");
    var lines = [box.lane + " " + box.kind + " #" + box.n + (box.label ? " [" + box.label + "]" : "") + (box.stage ? " (stage " + box.stage + ")" : ""),
      "prompt:   " + box.prompt, "outcome:  " + box.told.mark + " " + box.told.words + (box.reason ? " (" + box.reason + ")" : "") + (box.durationMs === undefined ? ", never ended" : ", " + box.durationMs + " ms on the virtual clock")];
    if (box.answer) lines.push("answer:   " + box.answer);
    if (box.entry) lines.push("entry:    " + box.entry.key + (box.entry.index === null ? "" : "[" + box.entry.index + "]") + " at " + site(box.entry.site));
    lines.push("asked at: " + site(box.askedAt));
    details.textContent = lines.join("\\n");
  }
  document.querySelectorAll("[data-run]").forEach(function (diagram) {
    var run = Number(diagram.getAttribute("data-run"));
    diagram.querySelectorAll(".box").forEach(function (element) {
      var index = Number(element.getAttribute("data-box"));
      element.addEventListener("click", function () { show(run, index, element); });
      element.addEventListener("keydown", function (event) { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); show(run, index, element); } });
    });
  });
})();`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** One test's timelines as a whole HTML document. */
export function renderTimelineHtml(page: TimelinePage): string {
  const sections = page.timelines.map((timeline, index) => {
    const heading = `${timeline.workflow} · ${timeline.ending} · ${timeline.boxes.length} boxes`;
    return `<h2>Run ${index + 1}: ${escape(heading)}</h2>\n<div class="diagram" data-run="${index}">${renderTimelineSvg(timeline)}</div>`;
  });
  const body = sections.length > 0 ? sections.join("\n") : '<p class="muted">This test made no testWorkflow run.</p>';
  return document(
    `${page.title} · timeline`,
    [
      `<h1>${escape(page.title)} <span class="${page.status === "passed" ? "passed" : "failed"}">${escape(page.status)}</span></h1>`,
      page.file ? `<div class="muted">${escape(page.file)}</div>` : "",
      body,
      '<div id="details" class="muted">Click a turn to see its prompt, its answer, the entry that met it and the call that asked it.</div>',
      `<script id="timeline-data" type="application/json">${jsonInScript(page.timelines)}</script>`,
      `<script>${PAGE_SCRIPT}</script>`,
    ].join("\n"),
  );
}

/** The index of the pages a run wrote: each test with its status, linked. */
export function renderTimelineIndex(entries: Array<{ title: string; status: string; file: string; href: string; runs: number }>): string {
  const rows = entries.map(
    (entry) =>
      `<tr><td class="${entry.status === "passed" ? "passed" : "failed"}">${escape(entry.status)}</td><td><a href="${attribute(entry.href)}">${escape(entry.title)}</a></td><td class="muted">${escape(entry.file)}</td><td>${entry.runs}</td></tr>`,
  );
  return document(
    "Turnlens timelines",
    ["<h1>Turnlens timelines</h1>", `<table><thead><tr><th>status</th><th>test</th><th>file</th><th>runs</th></tr></thead><tbody>${rows.join("")}</tbody></table>`].join(
      "\n",
    ),
  );
}

function document(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(title)}</title>`,
    `<style>${TIMELINE_COLORS}${TIMELINE_CSS}${PAGE_CSS}</style>`,
    "</head><body>",
    body,
    "</body></html>",
    "",
  ].join("\n");
}

/** JSON that cannot end the script element it sits in. */
export function jsonInScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function escape(text: string): string {
  return text.replace(/[&<>]/g, (char) => (char === "&" ? "&amp;" : char === "<" ? "&lt;" : "&gt;"));
}

function attribute(text: string): string {
  return escape(text).replace(/"/g, "&quot;");
}
