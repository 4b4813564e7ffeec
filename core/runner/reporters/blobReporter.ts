// The `blob` reporter: writes what the run knew (each file's events in order, its report with run
// traces, line coverage, the shard) as one blob report (blobReport.ts) for `turnlens merge-reports`.
import { resolve } from "node:path";
import type { FileReport, RunSummary, TestReport } from "../../execution/report.ts";
import { BLOB_VERSION, type BlobDocument, type BlobFile, blobText, DEFAULT_BLOB_FOLDER } from "../blobReport.ts";
import { versionLine } from "../versionLine.ts";
import type { FileExtras, Out, Reporter, RunEnd } from "./reporter.ts";

/** Where a blob goes when no file is given: `.turnlens-reports/blob-2-8.json` for shard 2/8, `blob.json` unsharded (Vitest's names). */
export function defaultBlobFile(shard: { index: number; count: number } | undefined): string {
  return `${DEFAULT_BLOB_FOLDER}/${shard ? `blob-${shard.index}-${shard.count}` : "blob"}.json`;
}

export class BlobReporter implements Reporter {
  private readonly startedAt = Date.now();
  private fileCount = 0;
  private readonly files = new Map<string, BlobFile>();
  private end: RunEnd | undefined;

  constructor(private readonly out: Out) {}

  start(fileCount: number): void {
    this.fileCount = fileCount;
  }
  fileStart(file: string): void {
    this.files.set(file, { file, startedAt: Date.now(), events: [] });
  }
  private of(file: string): BlobFile {
    let entry = this.files.get(file);
    if (!entry) this.files.set(file, (entry = { file, startedAt: Date.now(), events: [] }));
    return entry;
  }
  testEnd(file: string, test: TestReport): void {
    this.of(file).events.push({ test });
  }
  output(chunk: string, stream: "stdout" | "stderr", file: string): void {
    this.of(file).events.push({ output: chunk, stream });
  }
  fileEnd(report: FileReport, extras?: FileExtras): void {
    const entry = this.of(report.file);
    entry.report = report;
    if (extras?.schemas?.length) entry.extras = extras;
  }
  runEnded(end: RunEnd): void {
    this.end = end;
  }
  finish(_summary: RunSummary, durationMs: number, note?: string): void {
    const end = this.end;
    const blob: BlobDocument = {
      turnlens: "blob",
      version: BLOB_VERSION,
      versionLine: versionLine(),
      ...(end?.shard ? { shard: end.shard } : {}),
      startedAt: this.startedAt,
      durationMs,
      fileCount: this.fileCount,
      files: [...this.files.values()],
      unfinished: [...(end?.unfinished ?? [])],
      interrupted: end?.interrupted ?? false,
      bailed: end?.bailed ?? false,
      ...(note !== undefined ? { note } : {}),
      ...(end?.coverage ? { coverage: [...end.coverage] } : {}),
      ...(end?.mutation ? { mutation: end.mutation } : {}),
    };
    this.out.stdout.write(blobText(blob, resolve(this.out.cwd)));
  }
}
