// A blob report (`--reporter blob`): everything one run (a shard) knew, written as one JSON file for
// `turnlens merge-reports` to replay through any reporter as one run would have. Its paths are kept
// relative to the folder the run was in, so a shard run on one machine merges on another checkout.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, relative } from "node:path";
import { pathToFileURL } from "node:url";
import type { LineCoverageData } from "../execution/v8Coverage.ts";
import type { FileReport, TestReport } from "../execution/report.ts";
import type { FileExtras, Reporter } from "./reporters/reporter.ts";
import type { MutationResults } from "../mutate/mutate.ts";

export const BLOB_VERSION = 1;

/** The folder blobs go to, and merge-reports reads, when no path is given (Vitest's is `.vitest-reports`). */
export const DEFAULT_BLOB_FOLDER = ".turnlens-reports";

/** What happened in one file, in order, as the reporters were told. */
export type BlobEvent = { output: string; stream: "stdout" | "stderr" } | { test: TestReport };

export interface BlobFile {
  file: string;
  /** When the file started (ms since the epoch): junit's timestamp. */
  startedAt: number;
  events: BlobEvent[];
  /** Its report, once it ended; absent for a file stopped before it ended a test. */
  report?: FileReport;
  extras?: FileExtras;
}

/** The split a shard ran: every shard of one split has the same `plan`. */
export interface BlobShard {
  index: number;
  count: number;
  /** A hash of the files before the split and each one's shard: shards that disagree did not split alike. */
  plan: string;
}

export interface BlobDocument {
  turnlens: "blob";
  version: typeof BLOB_VERSION;
  /** `turnlens/0.1.0 linux-x64 node-v20.20.2`: merge-reports says when shards differ. */
  versionLine: string;
  shard?: BlobShard;
  startedAt: number;
  durationMs: number;
  /** How many files the run was given. */
  fileCount: number;
  /** In the order they started. */
  files: BlobFile[];
  /** Files that started and ended no test before the run stopped. */
  unfinished: string[];
  interrupted: boolean;
  bailed: boolean;
  /** The line the run printed before its count (interrupted, bailed, no test ran). */
  note?: string;
  /** With `--coverage`: each file's line coverage (Istanbul's data by path). */
  coverage?: Array<LineCoverageData | undefined>;
  /** With `--mutate`: the shard's mutants and their results. */
  mutation?: MutationResults;
}

/** The hash every shard of one split computes alike: the files (relative to the run's folder), the count and each file's shard. */
export function shardPlanHash(files: readonly string[], count: number, shardOf: readonly number[], cwd: string): string {
  const relativeFiles = files.map((file) => relative(cwd, file));
  return createHash("sha256")
    .update(JSON.stringify([count, relativeFiles, shardOf]))
    .digest("hex")
    .slice(0, 16);
}

// The run's folder, as it appears in the JSON text, stands for this: a NUL never appears raw in a
// path, and JSON writes it as `\u0000`, which no path's text and no file name holds.
const ROOT_MARK = "\\u0000turnlens-root\\u0000";
const ROOT_URL_MARK = "\\u0000turnlens-root-url\\u0000";

const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with each key of `replacements` replaced by its value where it is a whole string or a
 * folder's start (`/a/b/…`, not `/a/bc`), in one pass: a shard's or a cache's entries run to MBs.
 */
function replaceFolders(text: string, replacements: Record<string, string>): string {
  const froms = Object.keys(replacements).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(${froms.map(escaped).join("|")})(?=[/"])`, "g");
  return text.replace(pattern, (from) => replacements[from]!);
}

/** A blob (or a cached result) as JSON, the run's folder (as a path, and as a file URL) marked wherever it appears. */
export function blobText(blob: unknown, cwd: string): string {
  const text = JSON.stringify(blob);
  // Run from the file system's root, every path is its own: nothing to mark.
  if (dirname(cwd) === cwd) return text;
  return replaceFolders(text, { [inJson(pathToFileURL(cwd).href)]: ROOT_URL_MARK, [inJson(cwd)]: ROOT_MARK });
}

/** The blob in `text`, its marks turned into `cwd`; throws an Error naming `path` and what is wrong. */
export function readBlob(path: string, cwd: string): BlobDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`${path} could not be read: ${(error as Error).message}`);
  }
  let blob: Partial<BlobDocument>;
  try {
    blob = readBlobText(text, cwd) as Partial<BlobDocument>;
  } catch (error) {
    throw new Error(`${path} is not a blob report: it is not JSON (${(error as Error).message})`);
  }
  if (typeof blob !== "object" || blob === null || blob.turnlens !== "blob")
    throw new Error(`${path} is not a blob report: \`turnlens test --reporter blob\` writes those`);
  if (blob.version !== BLOB_VERSION) throw new Error(`${path} is a blob report of version ${JSON.stringify(blob.version)}; this turnlens reads version ${BLOB_VERSION}`);
  if (!Array.isArray(blob.files)) throw new Error(`${path} is a blob report without its files`);
  return blob as BlobDocument;
}

/** What blobText wrote, its marks placed under `cwd`. Throws a SyntaxError when it is not JSON. */
export function readBlobText(text: string, cwd: string): unknown {
  if (!text.includes(ROOT_MARK) && !text.includes(ROOT_URL_MARK)) return JSON.parse(text);
  return JSON.parse(replaceFolders(text, { [ROOT_URL_MARK]: inJson(pathToFileURL(cwd).href), [ROOT_MARK]: inJson(cwd) }));
}

/** Tells `reporter` what one file did, as its run told it; its report (a stopped one for a file that ended no test). */
export function replayFile(reporter: Reporter, entry: BlobFile): FileReport {
  reporter.fileStart(entry.file, entry.startedAt);
  const ended: TestReport[] = [];
  for (const event of entry.events) {
    if ("test" in event) {
      ended.push(event.test);
      reporter.testEnd(entry.file, event.test);
    } else reporter.output?.(event.output, event.stream, entry.file);
  }
  if (entry.report) {
    reporter.fileEnd(entry.report, entry.extras);
    return entry.report;
  }
  return { file: entry.file, tests: ended, durationMs: 0, stopped: true };
}
