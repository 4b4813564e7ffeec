// `turnlens test --timeline DIR`: one self-contained HTML timeline per test that ran, and an
// index.html listing them, written once the run ends (docs/timeline.md).
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { buildTimeline } from "../testing/timeline.ts";
import { renderTimelineHtml, renderTimelineIndex } from "../testing/timelineHtml.ts";
import type { FileReport } from "./report.ts";

/** Writes the pages of every test that ran (skipped and todo tests have none); returns the index's path and the page count. */
export function writeTimelines(reports: readonly FileReport[], directory: string, cwd: string): { index: string; pages: number } {
  mkdirSync(directory, { recursive: true });
  const entries: Array<{ title: string; status: string; file: string; href: string; runs: number }> = [];
  const taken = new Set<string>();
  for (const report of [...reports].sort((a, b) => a.file.localeCompare(b.file))) {
    const file = relative(cwd, report.file) || report.file;
    for (const test of report.tests) {
      if (test.status !== "passed" && test.status !== "failed") continue;
      const title = test.path.join(" › ");
      let name = `${slug(file)}--${slug(title)}`.slice(0, 180);
      for (let n = 2; taken.has(name); n++) name = `${name.replace(/-\d+$/, "")}-${n}`;
      taken.add(name);
      const href = `${name}.html`;
      writeFileSync(join(directory, href), renderTimelineHtml({ title, status: test.status, file, timelines: test.runs.map((run) => buildTimeline(run)) }));
      entries.push({ title, status: test.status, file, href, runs: test.runs.length });
    }
  }
  const index = join(directory, "index.html");
  writeFileSync(index, renderTimelineIndex(entries));
  return { index, pages: entries.length };
}

/** A file name's worth of text: letters, digits, dots and dashes. */
function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-+|-+$/g, "") || "test";
}
