// `--durations <file>`: the time each test file took, written by a run (or by merge-reports) and
// read by the next `--shard` to split the files by time (shards.ts). A small JSON file a CI caches
// or a repository commits; its paths are relative to its own folder, so it holds on any checkout.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { inRunOrder } from "./discover.ts";

/** What the file holds: each test file's time in whole ms, by its path from the file's folder. */
export interface DurationsDocument {
  turnlens: "durations";
  version: 1;
  files: Record<string, number>;
}

/** The file could not be read as durations: why, naming the file. The run goes on, split by count. */
export class DurationsFileError extends Error {}

const toKey = (from: string, file: string) => relative(from, file).split(sep).join("/");

/**
 * The durations the file holds, by absolute path; empty when there is no file yet. Throws
 * DurationsFileError naming the file and what is wrong with it.
 */
export function readDurations(path: string): Map<string, number> {
  const durations = new Map<string, number>();
  if (!existsSync(path)) return durations;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DurationsFileError(`the durations file ${path} could not be read: ${(error as Error).message}`);
  }
  const files = (document as Partial<DurationsDocument> | null)?.files;
  if (typeof document !== "object" || document === null || (document as DurationsDocument).turnlens !== "durations" || typeof files !== "object" || files === null) {
    throw new DurationsFileError(`the durations file ${path} is not one turnlens wrote: it needs {"turnlens": "durations", "version": 1, "files": {…}}`);
  }
  if ((document as DurationsDocument).version !== 1) {
    throw new DurationsFileError(`the durations file ${path} has version ${JSON.stringify((document as DurationsDocument).version)}; this turnlens reads version 1`);
  }
  const folder = dirname(path);
  for (const [name, ms] of Object.entries(files)) {
    if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0) {
      throw new DurationsFileError(`the durations file ${path} gives ${JSON.stringify(name)} the time ${JSON.stringify(ms)}; a time is a number of ms from 0`);
    }
    if (isAbsolute(name)) throw new DurationsFileError(`the durations file ${path} names ${JSON.stringify(name)}; its paths are relative to its folder`);
    durations.set(resolve(folder, name), ms);
  }
  return durations;
}

/**
 * Writes `measured` (ms by absolute path) into the file: kept entries of files that still exist
 * and were not measured now (another shard's), the measured ones replaced, sorted by path; written
 * to a temporary file beside it and renamed, so a reader never sees half of it.
 */
export function writeDurations(path: string, measured: ReadonlyMap<string, number>): void {
  let earlier = new Map<string, number>();
  try {
    earlier = readDurations(path);
  } catch {
    // An unreadable file is replaced whole: the run said so when it read it.
  }
  const folder = dirname(path);
  const all = new Map<string, number>();
  for (const [file, ms] of earlier) if (!measured.has(file) && existsSync(file)) all.set(toKey(folder, file), ms);
  for (const [file, ms] of measured) all.set(toKey(folder, file), Math.round(ms));
  const files = Object.fromEntries([...all].sort(([a], [b]) => inRunOrder(a, b)));
  const document: DurationsDocument = { turnlens: "durations", version: 1, files };
  const scratch = `${path}.${process.pid}.tmp`;
  writeFileSync(scratch, `${JSON.stringify(document, null, 2)}\n`);
  renameSync(scratch, path);
}
