// defineWorkflow: checks a workflow file's definition once, when the file loads.

import { WORKFLOW_KIND, type PreparedSpec, type PreparedWorkflow, type PrepareInput, type Workflow, type WorkflowSpec } from "./types.ts";
import type { EventSchemas } from "./eventTypes.ts";
import { checkToolDeclarations } from "./tools.ts";
import { checkOptions } from "./callOptions.ts";

const WORKFLOW_NAME = /^[A-Za-z0-9._-]+$/;

/** Args are inferred from `prepare` (which keeps the type it was written with) or `run`, and the events' types from `events` ({} without them). */
export function defineWorkflow<Returned, Result = unknown, Events extends EventSchemas = {}>(
  spec: PreparedSpec<Returned, Result, Events>,
): PreparedWorkflow<Returned, Result, Events>;
export function defineWorkflow<Args = null, Result = unknown, Events extends EventSchemas = {}>(spec: WorkflowSpec<Args, Result, Events>): Workflow<Args, Result, Events>;
export function defineWorkflow<Args, Result, Events extends EventSchemas>(spec: WorkflowSpec<Args, Result, Events>): Workflow<Args, Result, Events> {
  if (typeof spec !== "object" || spec === null) throw new TypeError("defineWorkflow takes { name, description, run }");
  if (typeof spec.name !== "string" || !WORKFLOW_NAME.test(spec.name)) {
    throw new TypeError(`a workflow's name is letters, digits, '.', '_' and '-', not ${JSON.stringify(spec.name)}`);
  }
  checkOptions(`workflow ${spec.name}`, "defineWorkflow", spec);
  if (spec.stages !== undefined) {
    for (const [stage, result] of Object.entries(spec.stages)) {
      if (!/^[a-z][a-z0-9-]*$/.test(stage)) throw new TypeError(`workflow ${spec.name}'s stages: "${stage}" is not a stage's name: lowercase letters, digits and '-'`);
      if (result !== null && (typeof result !== "object" || Array.isArray(result))) {
        throw new TypeError(`workflow ${spec.name}'s stages: ${stage}'s result must be a schema, or null for a stage that returns nothing`);
      }
    }
  }
  checkToolDeclarations(spec.name, spec.tools);
  const written = spec.prepare;
  // A test calls prepare as the page shows, `prepare({ argv: [] })`: cwd is the process's unless given.
  const prepare = written && ((input: Partial<PrepareInput>) => written({ ...input, argv: input?.argv ?? [], cwd: input?.cwd ?? process.cwd() }));
  return Object.freeze({ ...spec, ...(prepare ? { prepare } : {}), kind: WORKFLOW_KIND });
}

export function isWorkflow(value: unknown): value is Workflow<unknown, unknown> {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === WORKFLOW_KIND;
}
