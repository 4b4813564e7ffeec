// Names for the schemas of a schema mismatch, from the source: the runner knows which modules a
// test file imports and installs a namer that finds their exports (core/execution/schemaNames.ts);
// without one (a test run by another runner) the message names no schema, only the difference.

import { canonicalJson } from "../workflow/json.ts";
import { schemaMismatchWhy } from "./schemaDifference.ts";
import { turnProblem } from "./problems.ts";
import type { ProblemTrace, SourceSite } from "./trace.ts";

export interface SchemaNamer {
  /** Maps each schema's canonical JSON to the name an export gives it. */
  exports(schemas: readonly unknown[]): Promise<ReadonlyMap<string, string>>;
  /** The schema argument an `answer(...)` at `site` was written with (`answer(NOTE, …)` → `NOTE`), where its file declares that const at its top level. */
  argumentAt(site: SourceSite): Promise<string | undefined>;
}

let installed: SchemaNamer | undefined;

/** Installs the namer for the file about to run; returns what removes it. */
export function nameSchemasWith(namer: SchemaNamer): () => void {
  installed = namer;
  return () => {
    if (installed === namer) installed = undefined;
  };
}

const isSchema = (schema: unknown) => schema !== undefined && schema !== "text";

/** Words each schema-mismatch problem again with the names the source gives its schemas. */
export async function nameSchemaMismatches(problems: ProblemTrace[]): Promise<void> {
  const mismatches = problems.filter((problem) => problem.code === "schema-mismatch");
  if (!installed || mismatches.length === 0) return;
  const schemas = mismatches.flatMap((problem) => [problem.expectedSchema, problem.actualSchema]).filter(isSchema);
  const namer = installed;
  let names: ReadonlyMap<string, string>;
  try {
    names = await namer.exports(schemas);
  } catch {
    return;
  }
  const nameOf = (schema: unknown) => (isSchema(schema) ? names.get(canonicalJson(schema)) : undefined);
  for (const problem of mismatches) {
    // Each schema as a module the test imports exports it (the workflow's, usually); a script's
    // schema no module exports, as the test file declares it where its answer(...) names it.
    const expectedName = nameOf(problem.expectedSchema);
    const exported = nameOf(problem.actualSchema);
    const actualName = exported ?? (isSchema(problem.actualSchema) && problem.site ? await namer.argumentAt(problem.site).catch(() => undefined) : undefined);
    if (expectedName === undefined && actualName === undefined) continue;
    const named = { ...(expectedName !== undefined ? { expectedName } : {}), ...(actualName !== undefined ? { actualName } : {}) };
    const turn = { agent: problem.agent!, n: problem.turn!, nudge: problem.nudge ?? false, prompt: problem.prompt ?? "" };
    Object.assign(problem, named, { message: turnProblem("schema-mismatch", turn, schemaMismatchWhy({ ...problem, ...named })).message });
  }
}
