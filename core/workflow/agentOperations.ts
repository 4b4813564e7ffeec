// agent.compact, agent.set and agent.fork: operations on an agent beyond its turns, queued in the
// agent's one call order with them, and refused as a real host would refuse them, from harnesses.ts.

import { checkOptions } from "./callOptions.ts";
import type { AgentRegistry, AgentState } from "./agents.ts";
import { outcomeOfCancel, stoppedOutcome } from "./agents.ts";
import { durationToMilliseconds } from "./durations.ts";
import { WorkflowRuleError } from "./errors.ts";
import { compactionRefusal, effortRefusal, forkRefusal, settingsRefusal } from "./harnesses.ts";
import type { CallCapture, ForkedFrom } from "./host.ts";
import { checkExecution } from "./runtimes.ts";
import type { AgentRef, CompactSpec, Execution, ForkSpec, Outcome, SetSpec } from "./types.ts";

const refused = (reason: string): Outcome<never> => ({ kind: "failed", reason, retryable: false });

/**
 * An operation the workflow named with `id` is the same operation when named again with the same
 * specification (it is not run twice); with another, the call rejects.
 */
function named<T>(state: AgentState, noun: string, id: string | undefined, specification: unknown, run: () => Promise<T>): Promise<T> {
  if (id === undefined) return run();
  if (typeof id !== "string" || id === "") return Promise.reject(new TypeError(`agent "${state.opened.key}": a ${noun}'s id is text, not ${JSON.stringify(id)}`));
  const slot = `${noun}:${id}`;
  const written = JSON.stringify(specification);
  const earlier = state.named.get(slot);
  if (earlier) {
    if (earlier.spec === written) return earlier.result as Promise<T>;
    return Promise.reject(new WorkflowRuleError(`${noun} id ${id} was reused with a different specification`));
  }
  const result = run();
  state.named.set(slot, { spec: written, result });
  return result;
}

export async function compactAgent(registry: AgentRegistry, state: AgentState, spec: CompactSpec): Promise<Outcome<string>> {
  const key = state.opened.key;
  checkOptions(`agent "${key}": compact`, "agent.compact", spec);
  const timeoutMs = spec.timeout === undefined ? undefined : durationToMilliseconds(spec.timeout, "a compaction's timeout");
  const attempt = registry.attempt;
  return named(state, "compaction", spec.id, { prompt: spec.prompt, timeout: spec.timeout }, () =>
    registry.enqueue(state, async (scope): Promise<Outcome<string>> => {
      if (scope.cancelReason) return outcomeOfCancel(scope.cancelReason) as Outcome<never>;
      if (state.stopped !== undefined) return stoppedOutcome(state);
      // Refusals come first, before anything reaches the host: a real host makes them the same way.
      if (state.isCaller) return refused(`agent ${key} is the calling session, whose context only the operator compacts`);
      if (state.turns === 0 && !state.inheritsHistory) return refused("there is nothing to compact before the first turn");
      const cannot = compactionRefusal(state.execution);
      if (cannot) return refused(cannot);
      const n = ++state.compactions;
      const deadlineAt = timeoutMs === undefined ? undefined : attempt.clocks.deadline.now() + timeoutMs;
      const operationScope = scope.child(deadlineAt === undefined ? {} : { deadlineAt });
      state.running.add(operationScope);
      try {
        const result = await registry.operate(state, { prompt: spec.prompt }, n, false, operationScope, "", "compact", spec.id ?? `compaction-${n}`);
        const outcome: Outcome = result.end === "silent" ? { kind: "failed", reason: "the harness did not confirm a compaction", retryable: true } : result.end;
        attempt.host.settle(result.operation, outcome);
        await attempt.unlessAbandoned();
        return outcome as Outcome<string>;
      } finally {
        state.running.delete(operationScope);
        operationScope.dispose();
      }
    }),
  );
}

export async function setAgent(registry: AgentRegistry, state: AgentState, spec: SetSpec): Promise<Outcome<Execution>> {
  const key = state.opened.key;
  checkOptions(`agent "${key}": set`, "agent.set", spec);
  const { model, effort } = spec;
  if (model === undefined && effort === undefined) throw new TypeError(`agent "${key}": set needs a model or an effort`);
  const attempt = registry.attempt;
  return named(state, "set", spec.id, { model, effort }, () =>
    registry.enqueue(state, async (scope): Promise<Outcome<Execution>> => {
      if (scope.cancelReason) return outcomeOfCancel(scope.cancelReason) as Outcome<never>;
      if (state.stopped !== undefined) return stoppedOutcome(state);
      if (state.isCaller) return refused(`agent ${key} is the calling session, whose model and effort are the operator's`);
      const cannot = settingsRefusal(state.execution) ?? (effort === undefined ? undefined : effortRefusal(state.execution.harness, effort));
      if (cannot) return refused(cannot);
      const execution: Execution = { ...state.execution, ...(model !== undefined ? { model } : {}), ...(effort !== undefined ? { effort } : {}) };
      state.execution = execution;
      const n = ++state.sets;
      attempt.host.switched?.(key, n, { ...execution });
      return { kind: "answered", value: { ...execution } };
    }),
  );
}

/** The settings a fork of a session at `base` runs at, checked as an open would check them. */
export function forkExecution(base: Execution, spec: ForkSpec): Execution {
  const { caller: _caller, ...parent } = base;
  const execution: Execution = {
    ...parent,
    ...(spec.placement !== undefined ? { placement: spec.placement } : {}),
    ...(spec.effort !== undefined ? { effort: spec.effort } : {}),
    ...(spec.metered !== undefined ? { metered: spec.metered } : {}),
  };
  checkExecution(spec.key, execution);
  const cannot = forkRefusal(execution);
  if (cannot) throw new Error(`agent "${spec.key}": ${cannot}`);
  return execution;
}

export function checkForkSpec(spec: ForkSpec, call: string): void {
  checkOptions(call, "agent.fork", spec);
}

/** Opens the fork as a new agent; its key must be new to the run. */
export function openFork(
  registry: AgentRegistry,
  spec: ForkSpec,
  execution: Execution,
  cwd: string,
  forkedFrom: ForkedFrom,
  skills?: AgentState["spec"]["skills"],
  /** The parent's sandbox, which the fork runs in too. */
  sandbox?: AgentState["opened"]["sandbox"],
  /** Where the workflow asked for the fork, when the host captures calls. */
  openedAt?: CallCapture,
): AgentRef {
  if (registry.has(spec.key) || registry.callerState?.opened.key === spec.key) {
    throw new WorkflowRuleError(`agent "${spec.key}" is already open; a fork needs a key of its own`);
  }
  const { key, instructions, labels, layout, keepPane } = spec;
  return registry.openAgent(
    {
      key,
      ...(instructions !== undefined ? { instructions } : {}),
      ...(skills !== undefined ? { skills } : {}),
      ...(labels !== undefined ? { labels } : {}),
      ...(layout !== undefined ? { layout } : {}),
      ...(keepPane !== undefined ? { keepPane } : {}),
    },
    execution,
    { cwd, forkedFrom, ...(sandbox ? { sandbox: registry.attempt.sandboxes.planOf(sandbox) } : {}), ...(openedAt ? { openedAt } : {}) },
  );
}

export async function forkAgent(registry: AgentRegistry, parent: AgentState, spec: ForkSpec, openedAt?: CallCapture): Promise<AgentRef> {
  checkForkSpec(spec, `agent "${parent.opened.key}": fork`);
  return registry.enqueue(parent, async () => {
    const key = parent.opened.key;
    if (parent.isCaller) throw new WorkflowRuleError(`agent ${key} is the calling session; wf.agents.forkCaller forks it`);
    if (parent.turns === 0 && !parent.inheritsHistory) throw new Error(`agent "${key}" cannot be forked before its first turn`);
    const execution = forkExecution(parent.execution, spec);
    return openFork(registry, spec, execution, parent.opened.cwd, { key, turns: parent.turns }, parent.spec.skills, parent.opened.sandbox, openedAt);
  });
}
