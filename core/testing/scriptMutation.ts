// The hook `turnlens test --mutate` sets in a worker: it numbers each test's testWorkflow calls
// and changes one scripted entry of one call (a value, a noAnswer kind, a list entry dropped).
// Unset in every other run, where testWorkflow pays one read of a module variable for it.

import { answer, isAnswer, noAnswer, type Entry } from "./entries.ts";
import { NO_ANSWER_KINDS, type NoAnswerKind } from "./noAnswerKinds.ts";
import type { ScriptSlot } from "./scripts.ts";
import type { RunTrace } from "./trace.ts";

/** What becomes of the entry: another value, another noAnswer, or (in a list) nothing. */
export type ScriptChange = { kind: "value"; value: unknown } | { kind: "no-answer"; noAnswer: NoAnswerKind } | { kind: "drop" };

/** One entry of one call changed: the `call`-th testWorkflow call of the test (1-based), its `agents[key]` entry at `index` (null: a single entry). */
export interface EntryChange {
  call: number;
  key: string;
  index: number | null;
  to: ScriptChange;
}

/** A worker's plan for one file run: without `change`, calls are only numbered (the baseline of --mutate). */
export interface MutationPlan {
  change?: EntryChange;
  /**
   * The `--mutate` command's or the editor's check's id: within it the file's texts do not change,
   * so a worker bundles the file once for all its mutants (core/execution/mutantBundles.ts).
   */
  session?: string;
}

interface Installed {
  plan: MutationPlan;
  calls: number;
}

let installed: Installed | undefined;

/** @internal Set by the runner for one file's run (core/execution/runFile.ts), unset after it. */
export function installMutationPlan(plan: MutationPlan | undefined): void {
  installed = plan ? { plan, calls: 0 } : undefined;
}

/** @internal A test (or a retry of it) starts: its calls count from 1 again. */
export function startMutatedTest(): void {
  if (installed) installed.calls = 0;
}

/**
 * @internal testWorkflow's hook: undefined when no plan is installed (every ordinary run), else
 * the `agents` scripts this call runs with; the call's number is written on its trace.
 */
export function mutatedAgents(agents: ScriptSlot[], trace: RunTrace): ScriptSlot[] | undefined {
  if (!installed) return undefined;
  const call = ++installed.calls;
  trace.call = call;
  const change = installed.plan.change;
  if (!change || change.call !== call) return agents;
  return agents.map((slot) => (slot.key === change.key ? changedSlot(slot, change) : slot));
}

function changedSlot(slot: ScriptSlot, change: EntryChange): ScriptSlot {
  const position = change.index ?? 0;
  const original = slot.entries[position];
  if (!original || (change.index === null) === slot.isList) return slot;
  if (change.to.kind === "drop") return { ...slot, entries: slot.entries.filter((_entry, index) => index !== position) };
  const replaced = replacement(original, change.to);
  return { ...slot, entries: slot.entries.map((entry, index) => (index === position ? replaced : entry)) };
}

function replacement(original: Entry, to: Exclude<ScriptChange, { kind: "drop" }>): Entry {
  // The kind's method with no argument: its default reason, as the summary `noAnswer.failed()` says.
  if (to.kind === "no-answer") return noAnswer[NO_ANSWER_KINDS[to.noAnswer].method]();
  const schema = isAnswer(original) ? original.schema : undefined;
  // A text turn's answer is text; a schema's, the value the runner chose within it.
  return schema === undefined ? answer(String(to.value)) : answer(schema, to.value as never);
}
