// The run's snapshots as Vitest's summary counts them (written, failed, updated, obsolete or removed,
// with the obsolete keys under their file), the lines the terminal reporters print before the count line.
import type { FileReport } from "../../execution/report.ts";
import type { Paint } from "./reporter.ts";

/** The lines, empty when no file used a snapshot; `rel` shows a file as the run names it. */
export function snapshotSummaryLines(files: readonly FileReport[], c: Paint, rel: (file: string) => string): string[] {
  const results = files.flatMap((file) => (file.snapshots ? [{ file: file.file, result: file.snapshots }] : []));
  if (results.length === 0) return [];
  const sum = (count: (r: (typeof results)[number]["result"]) => number) => results.reduce((total, { result }) => total + count(result), 0);
  const added = sum((r) => r.added);
  const unmatched = sum((r) => r.unmatched);
  const updated = sum((r) => r.updated);
  const unchecked = sum((r) => r.unchecked);
  const parts: string[] = [];
  if (added) parts.push(c.bold(c.green(`${added} written`)));
  if (unmatched) parts.push(c.bold(c.red(`${unmatched} failed`)));
  if (updated) parts.push(c.bold(c.green(`${updated} updated`)));
  if (unchecked) {
    // Under -u they were removed; otherwise they stay, and each is named.
    const removed = results.every(({ result }) => result.unchecked === 0 || result.update === "all");
    parts.push(removed ? c.bold(c.green(`${unchecked} removed`)) : c.bold(c.yellow(`${unchecked} obsolete`)));
    for (const { file, result } of results) {
      if (result.uncheckedKeys.length === 0) continue;
      parts.push(`${c.dim("↳")} ${rel(file)}`);
      for (const key of result.uncheckedKeys) parts.push(`  ${c.dim("·")} ${key}`);
    }
  }
  if (parts.length === 0) return [];
  const title = "Snapshots";
  return parts.map((part, i) => `${i === 0 ? c.dim(title) : " ".repeat(title.length)}  ${part}`);
}
