// The calling session: `wf.agents.caller` drives the session `awf run --here` was typed in as an
// agent (operator-owned: no instructions, compaction or set), and `forkCaller` forks it.

import type { AgentRegistry } from "./agents.ts";
import { checkForkSpec, forkExecution, openFork } from "./agentOperations.ts";
import { WorkflowRuleError } from "./errors.ts";
import { checkOptions } from "./callOptions.ts";
import type { CallCapture } from "./host.ts";
import type { AgentRef, Execution, ForkSpec } from "./types.ts";

export async function callerAgent(registry: AgentRegistry, spec: { key: string }, openedAt?: CallCapture): Promise<AgentRef | null> {
  const attempt = registry.attempt;
  checkOptions("wf.agents.caller", "wf.agents.caller", spec);
  await attempt.unlessAbandoned();
  const setting = attempt.settings.caller;
  if (!setting || setting.here === false) return null;
  const current = registry.callerState;
  if (current) {
    if (current.opened.key === spec.key) return current.ref;
    throw new WorkflowRuleError(`the calling session is already agent ${current.opened.key}; it cannot also be ${spec.key}`);
  }
  if (registry.has(spec.key)) throw new WorkflowRuleError(`agent "${spec.key}" is already open; the calling session needs a key of its own`);
  // Its model is whatever the operator runs; the run neither knows nor switches it.
  const execution: Execution = { harness: setting.harness, model: "", placement: "pane", caller: true };
  return registry.openAgent({ key: spec.key }, execution, { cwd: attempt.cwd, isCaller: true, ...(openedAt ? { openedAt } : {}) });
}

export async function forkCallerAgent(registry: AgentRegistry, spec: ForkSpec, openedAt?: CallCapture): Promise<AgentRef | null> {
  const attempt = registry.attempt;
  checkForkSpec(spec, "wf.agents.forkCaller");
  await attempt.unlessAbandoned();
  const setting = attempt.settings.caller;
  // A fork runs on the model the session's files show; without one there is nothing to fork onto.
  if (!setting || setting.model === undefined) return null;
  const base: Execution = { harness: setting.harness, model: setting.model, placement: "pane" };
  const fork = (turns: number) => openFork(registry, spec, forkExecution(base, spec), attempt.cwd, { caller: true, turns }, undefined, undefined, openedAt);
  const driven = registry.callerState;
  // Driven by the run, the session is copied after its earlier operations, as agent.fork copies.
  return driven ? registry.enqueue(driven, async () => fork(driven.turns)) : fork(0);
}
