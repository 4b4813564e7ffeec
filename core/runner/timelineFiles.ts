// `turnlens test --timeline DIR`: one self-contained HTML timeline per test that ran, the same runs
// as a Markdown page of Mermaid diagrams beside it (GitHub draws them), and an index.html listing
// them, written once the run ends (docs/timeline.md), only into a folder that is
// Turnlens's own, each file written under a fresh name then renamed into place.
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { buildTimeline } from "../testing/timeline.ts";
import { renderTimelineHtml, renderTimelineIndex } from "../testing/timelineHtml.ts";
import { renderMermaidPage } from "../testing/timelineMermaid.ts";
import type { FileReport } from "../execution/report.ts";

/** The file that marks a folder as written by --timeline, so a later run may write there again. */
export const TIMELINE_MARKER = ".turnlens-timelines";
const MARKER_TEXT = "This folder holds the pages of `turnlens test --timeline`; turnlens writes into it only while this file is here.\n";

/** A --timeline folder Turnlens may not write into: the message says why and what to do. */
export class TimelineFolderError extends Error {}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/**
 * Makes `directory` ready for the pages, or throws TimelineFolderError: a folder that does not
 * exist is made; an empty one is taken; one with the marker (an earlier --timeline's) is used
 * again; any other folder (the project's own, say, with its index.html) is refused, and so is a path
 * that is a file. The marker is written when the folder is made or taken. `shown` is the path as given.
 */
export function prepareTimelineFolder(directory: string, shown = directory): void {
  let isFolder: boolean;
  try {
    // A symbolic link to a folder is followed: the folder it names is the one checked.
    isFolder = statSync(directory).isDirectory();
  } catch (error) {
    if (!isMissing(error)) throw new TimelineFolderError(`--timeline ${shown}: ${(error as Error).message}`);
    try {
      mkdirSync(directory, { recursive: true });
    } catch (made) {
      throw new TimelineFolderError(`--timeline ${shown}: could not make the folder: ${(made as Error).message}`);
    }
    isFolder = true;
  }
  if (!isFolder) throw new TimelineFolderError(`--timeline ${shown}: ${shown} is a file, not a folder; give a folder for the timelines`);
  const entries = readdirSync(directory);
  if (entries.includes(TIMELINE_MARKER)) {
    if (lstatSync(join(directory, TIMELINE_MARKER)).isFile()) return;
  } else if (entries.length === 0) {
    writeFileSync(join(directory, TIMELINE_MARKER), MARKER_TEXT, { flag: "wx" });
    return;
  }
  const others = entries.filter((name) => name !== TIMELINE_MARKER).sort();
  const listed = others.length <= 3 ? others.join(", ") : `${others.slice(0, 3).join(", ")} and ${others.length - 3} more`;
  throw new TimelineFolderError(
    `--timeline ${shown}: the folder holds files turnlens did not write (${listed}); give a new or empty folder, or one an earlier --timeline wrote (it holds ${TIMELINE_MARKER})`,
  );
}

/**
 * Writes `text` to `name` in `directory` without following a symbolic link there: it goes to a fresh
 * name first (created exclusively), then is renamed over the old file or link, which is replaced.
 */
function writeInPlace(directory: string, name: string, text: string): void {
  const temporary = join(directory, `.${name}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text, { flag: "wx" });
    renameSync(temporary, join(directory, name));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new TimelineFolderError(`--timeline could not write ${join(directory, name)}: ${(error as Error).message}`);
  }
}

/** Writes the pages of every test that ran (skipped and todo tests have none); returns the index's path and the page count. */
export function writeTimelines(reports: readonly FileReport[], directory: string, cwd: string): { index: string; pages: number } {
  prepareTimelineFolder(directory);
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
      const timelines = test.runs.map((run) => buildTimeline(run, test.status !== "failed"));
      writeInPlace(directory, href, renderTimelineHtml({ title, status: test.status, file, timelines }));
      writeInPlace(directory, `${name}.md`, renderMermaidPage({ title, status: test.status, file, html: href, timelines }));
      entries.push({ title, status: test.status, file, href, runs: test.runs.length });
    }
  }
  writeInPlace(directory, "index.html", renderTimelineIndex(entries));
  return { index: join(directory, "index.html"), pages: entries.length };
}

/** A file name's worth of text: letters, digits, dots and dashes. */
function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9.]+/g, "-").replace(/^-+|-+$/g, "") || "test";
}
