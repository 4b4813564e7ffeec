// What "Update Snapshots" says once the server answered (server/snapshotUpdates.ts's result), in
// words for the notification: what was written, or why nothing was.
import type { UpdateSnapshotResult } from "../../server/protocol.ts";

export function updateSnapshotWords(path: readonly string[], result: UpdateSnapshotResult): string {
  const test = `"${path.join(" › ")}"`;
  if (!result.ok) return `the snapshots of ${test} were not updated: ${result.refused ?? "the run failed"}.`;
  const updated = result.updated ?? 0;
  const added = result.added ?? 0;
  const written = updated + added === 0 ? "none needed rewriting" : [updated ? `${updated} rewritten` : "", added ? `${added} written` : ""].filter(Boolean).join(", ");
  const after = result.status === "failed" ? "; the test still fails" : "";
  return `snapshots of ${test} updated: ${written}${after}.`;
}
