// The bundle a `--mutate` session's mutants share: each mutant reruns the same text of its file, so
// a worker bundles it once per session (the CLI's command, an editor's check) rather than per mutant.
// Only the last file's bundle is kept; a run outside a session never reads or writes it.
import type { BundleResult } from "./transform.ts";

let kept: { key: string; bundle: BundleResult } | undefined;

function keyOf(session: string, file: string, sources: Readonly<Record<string, string>>): string {
  return JSON.stringify([session, file, sources]);
}

/** The bundle this worker made for the file's texts in this session, if it made one. */
export function sessionBundle(session: string, file: string, sources: Readonly<Record<string, string>>): BundleResult | undefined {
  return kept?.key === keyOf(session, file, sources) ? kept.bundle : undefined;
}

/** Keeps the bundle for the session's next mutants of the file. */
export function keepSessionBundle(session: string, file: string, sources: Readonly<Record<string, string>>, bundle: BundleResult): void {
  kept = { key: keyOf(session, file, sources), bundle };
}
