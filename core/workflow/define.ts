// defineWorkflow: checks a workflow file's definition once, when the file loads.

import { WORKFLOW_KIND, type Workflow, type WorkflowSpec } from "./types.ts";

const WORKFLOW_NAME = /^[A-Za-z0-9._-]+$/;

export function defineWorkflow<Args = null, Result = unknown>(spec: WorkflowSpec<Args, Result>): Workflow<Args, Result> {
  if (typeof spec !== "object" || spec === null) throw new TypeError("defineWorkflow takes { name, description, run }");
  if (typeof spec.name !== "string" || !WORKFLOW_NAME.test(spec.name)) {
    throw new TypeError(`a workflow's name is letters, digits, '.', '_' and '-', not ${JSON.stringify(spec.name)}`);
  }
  if (typeof spec.description !== "string" || spec.description.trim() === "") {
    throw new TypeError(`workflow ${spec.name} needs a description`);
  }
  if (typeof spec.run !== "function") throw new TypeError(`workflow ${spec.name} needs a run(wf, args) function`);
  for (const hook of ["prepare", "present", "report"] as const) {
    if (spec[hook] !== undefined && typeof spec[hook] !== "function") {
      throw new TypeError(`workflow ${spec.name}'s ${hook} must be a function`);
    }
  }
  return Object.freeze({ ...spec, kind: WORKFLOW_KIND });
}

export function isWorkflow(value: unknown): value is Workflow<unknown, unknown> {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === WORKFLOW_KIND;
}
