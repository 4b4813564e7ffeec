// Names for the schemas of a schema mismatch, from the source: the runner knows which modules a
// test file imports and installs a namer that finds their exports (core/runner/schemaNames.ts);
// without one (a test run by another runner) the message names no schema, only the difference.

import { canonicalJson } from "../workflow/json.ts";
import { schemaMismatchWhy } from "./schemaDifference.ts";
import { turnProblem } from "./problems.ts";
import type { ProblemTrace } from "./trace.ts";

/** Maps each schema's canonical JSON to the name an export gives it; never throws. */
export type SchemaNamer = (schemas: readonly unknown[]) => Promise<ReadonlyMap<string, string>>;

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
  let names: ReadonlyMap<string, string>;
  try {
    names = await installed(schemas);
  } catch {
    return;
  }
  const nameOf = (schema: unknown) => (isSchema(schema) ? names.get(canonicalJson(schema)) : undefined);
  for (const problem of mismatches) {
    const expectedName = nameOf(problem.expectedSchema);
    const actualName = nameOf(problem.actualSchema);
    if (expectedName === undefined && actualName === undefined) continue;
    const named = { ...(expectedName !== undefined ? { expectedName } : {}), ...(actualName !== undefined ? { actualName } : {}) };
    const turn = { agent: problem.agent!, n: problem.turn!, nudge: problem.nudge ?? false, prompt: problem.prompt ?? "" };
    Object.assign(problem, named, { message: turnProblem("schema-mismatch", turn, schemaMismatchWhy({ ...problem, ...named })).message });
  }
}
