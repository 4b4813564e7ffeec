// Tools: handlers a workflow declares (`defineWorkflow({ tools })`) and grants to agents
// (`wf.agents.open({ tools })`), called by an agent (`wfa tool`) with input its schema checks.

import { nearestOr } from "./unknownOptions.ts";
import { checkOptions } from "./callOptions.ts";
import { checkAnswer } from "./answerCheck.ts";
import type { Attempt } from "./attempt.ts";
import { messageOf, WorkflowRuleError } from "./errors.ts";
import { whyNotJson, type JsonValue } from "./json.ts";
import type { ToolResult, ToolSpec } from "./messageTypes.ts";
import { CancelReason, inScope, type Scope } from "./scope.ts";
import type { TSchema } from "typebox";

const TOOL_NAME = /^[A-Za-z0-9._-]+$/;
const quotedList = (names: readonly string[]) => (names.length ? names.map((name) => `"${name}"`).join(", ") : "none");

/** Types a tool's handler from its input schema; the declaration itself is checked by defineWorkflow. */
export function defineTool<S extends TSchema, Output>(spec: ToolSpec<S, Output>): ToolSpec<S, Output> {
  return spec;
}

/** Checks a workflow's `tools` when the file loads. */
export function checkToolDeclarations(workflow: string, tools: unknown): void {
  if (tools === undefined) return;
  if (typeof tools !== "object" || tools === null || Array.isArray(tools)) {
    throw new TypeError(`workflow ${workflow}'s tools must map a tool's name to { description, input, run }`);
  }
  for (const [name, tool] of Object.entries(tools as Record<string, Partial<ToolSpec>>)) {
    if (!TOOL_NAME.test(name)) throw new TypeError(`workflow ${workflow}: a tool's name is letters, digits, '.', '_' and '-', not ${JSON.stringify(name)}`);
    checkOptions(`workflow ${workflow}: tool "${name}"`, "tool", tool);
  }
}

export class Tools {
  constructor(
    private readonly attempt: Attempt,
    private readonly declared: Readonly<Record<string, ToolSpec>>,
  ) {}

  /** Checks what `wf.agents.open` grants an agent: a list of tools the workflow declares. */
  checkGrant(agent: string, granted: unknown): void {
    if (granted === undefined) return;
    if (!Array.isArray(granted) || granted.some((name) => typeof name !== "string")) {
      throw new TypeError(`agent "${agent}": tools is a list of the workflow's tool names, not ${JSON.stringify(granted)}`);
    }
    for (const name of granted as string[]) {
      if (!Object.hasOwn(this.declared, name)) {
        throw new WorkflowRuleError(
          `agent "${agent}" is given tool "${name}", which the workflow does not declare; ${nearestOr(name, Object.keys(this.declared), `it declares ${quotedList(Object.keys(this.declared))}`)}`,
        );
      }
    }
  }

  /** One `wfa tool` call: refused before the handler runs, else the handler's output or failure. */
  async call(agent: { key: string; cwd: string }, granted: readonly string[] | undefined, name: unknown, input: unknown, scope: Scope): Promise<ToolResult> {
    const declared = Object.keys(this.declared);
    if (typeof name !== "string" || !Object.hasOwn(this.declared, name)) {
      const otherwise = `the workflow declares ${quotedList(declared)}`;
      return {
        kind: "refused",
        code: "unknown-tool",
        error: `no tool ${JSON.stringify(name)}; ${typeof name === "string" ? nearestOr(name, declared, otherwise) : otherwise}`,
      };
    }
    if (!(granted ?? []).includes(name)) {
      return { kind: "refused", code: "not-granted", error: `agent "${agent.key}" was not given tool "${name}"; it was given ${quotedList(granted ?? [])}` };
    }
    const tool = this.declared[name]!;
    // A call with no input is `wfa tool <name>` with none: an empty object.
    const given = input === undefined ? {} : input;
    const notJson = whyNotJson(given);
    if (notJson) return { kind: "refused", code: "input-refused", error: `tool "${name}": its input is not JSON: ${notJson}` };
    const verdict = checkAnswer(tool.input, JSON.stringify(given));
    if (!verdict.accepted) return { kind: "refused", code: "input-refused", error: `tool "${name}" refused its input: ${verdict.error}` };
    if (scope.signal.aborted) return this.cancelled(scope.signal.reason);
    let onAbort!: () => void;
    const aborted = new Promise<{ aborted: unknown }>((resolve) => {
      onAbort = () => resolve({ aborted: scope.signal.reason });
      scope.signal.addEventListener("abort", onAbort, { once: true });
    });
    this.attempt.settings.onCwdUsed?.(agent.cwd);
    const ran = Promise.resolve()
      .then(() => inScope(scope, () => tool.run(verdict.value as never, { agent: agent.key, cwd: agent.cwd, signal: scope.signal })))
      .then(
        (output) => ({ output }),
        (error: unknown) => ({ error }),
      );
    const settled = await Promise.race([ran, aborted]);
    scope.signal.removeEventListener("abort", onAbort);
    await this.attempt.unlessAbandoned();
    if ("aborted" in settled) return this.cancelled(settled.aborted);
    if ("error" in settled) return { kind: "failed", outcome: "failed", error: `tool "${name}" failed: ${messageOf(settled.error)}` };
    const output = settled.output === undefined ? null : settled.output;
    const why = whyNotJson(output);
    if (why) return { kind: "failed", outcome: "failed", error: `tool "${name}" answered something that is not JSON: ${why}` };
    return { kind: "result", output: JSON.parse(JSON.stringify(output)) as JsonValue };
  }

  private cancelled(reason: unknown): ToolResult {
    const timedOut = reason instanceof CancelReason && reason.kind === "timed-out";
    return { kind: "failed", outcome: timedOut ? "timed-out" : "cancelled", error: messageOf(reason) };
  }
}
