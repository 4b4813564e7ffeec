// wf.sandboxes.open and an agent's `sandbox`: checks a sandbox's rules, resolves its paths against
// wf.cwd, opens each sandbox once through the run's SandboxProvider, and gives each agent in one
// the domains it reaches, its harness's model API included (harnesses.ts).

import { refuseUnknownOptions } from "./unknownOptions.ts";
import { resolve } from "node:path";
import type { Attempt } from "./attempt.ts";
import { messageOf, WorkflowRuleError } from "./errors.ts";
import { modelApiHosts } from "./harnesses.ts";
import type { Execution } from "./types.ts";
import type { AgentSandbox, ResolvedSandboxSpec, SandboxProviderName, SandboxRef, SandboxSpec } from "./sandboxTypes.ts";

const SANDBOX_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A host name, or `*.` and one: what srt's and docker's network allow-lists take. */
const DOMAIN = /^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const RULES = ["read", "write", "network", "srt", "docker"] as const;
type Rule = (typeof RULES)[number];

/** A sandbox's rules, checked and resolved, and which of them were given (a reopen compares only those). */
interface ResolvedRules {
  given: Rule[];
  provider: SandboxProviderName;
  spec: ResolvedSandboxSpec;
}

/** @internal The sandbox an agent is to be given: one open already, or (with `rules`) its inline spec, opened with the agent. */
export interface PlannedSandbox {
  key: string;
  rules?: ResolvedRules;
}

/** The private sandbox of an agent given an inline spec. */
export const privateSandboxKey = (agent: string) => `agent:${agent}`;

const shown = (value: unknown) => JSON.stringify(value) ?? String(value);
const unique = (items: readonly string[]) => [...new Set(items)];
const sameSet = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

function copyOf<T>(value: T): T {
  return structuredClone(value);
}

function paths(label: string, field: "read" | "write", value: unknown, cwd: string): string[] {
  if (!Array.isArray(value)) throw new TypeError(`${label}: ${field} is a list of paths, not ${shown(value)}`);
  return unique(
    value.map((path: unknown) => {
      if (typeof path !== "string" || path.trim() === "") throw new TypeError(`${label}: ${field} lists paths; ${shown(path)} is not one`);
      if (path.startsWith("~")) {
        throw new TypeError(`${label}: ${field}: "${path}" starts with ~, which is not expanded; give an absolute path or one relative to wf.cwd`);
      }
      return resolve(cwd, path);
    }),
  );
}

function domains(label: string, value: unknown): string[] {
  if (!Array.isArray(value)) throw new TypeError(`${label}: network is a list of domains, not ${shown(value)}`);
  return unique(
    value.map((domain: unknown) => {
      const lower = typeof domain === "string" ? domain.toLowerCase() : undefined;
      if (lower === undefined || !DOMAIN.test(lower)) {
        throw new TypeError(`${label}: network lists domains such as "github.com" or "*.npmjs.org"; ${shown(domain)} is not one`);
      }
      return lower;
    }),
  );
}

/** Checks a sandbox's rules (`extra` names the other fields its caller takes) and resolves them against `cwd`. */
function resolveRules(label: string, given: object, cwd: string, extra: readonly string[]): ResolvedRules {
  const fields = given as Partial<Record<Rule, unknown>>;
  refuseUnknownOptions(label, given, [...extra, ...RULES]);
  const named = RULES.filter((rule) => fields[rule] !== undefined);
  if (fields.srt !== undefined && fields.srt !== true) throw new TypeError(`${label}: srt is true (it takes no options), not ${shown(fields.srt)}`);
  const docker = fields.docker as { image?: unknown } | undefined;
  if (docker !== undefined && (typeof docker !== "object" || docker === null || typeof docker.image !== "string" || docker.image.trim() === "")) {
    throw new TypeError(`${label}: docker names the image its container runs, such as { image: "node:20" }, not ${shown(docker)}`);
  }
  if (fields.srt !== undefined && docker !== undefined) throw new TypeError(`${label} is confined by one provider, srt or docker, not both`);
  const spec: ResolvedSandboxSpec = {
    read: fields.read === undefined ? [] : paths(label, "read", fields.read, cwd),
    write: fields.write === undefined ? [] : paths(label, "write", fields.write, cwd),
    network: fields.network === undefined ? [] : domains(label, fields.network),
    ...(docker !== undefined ? { docker: { image: docker.image as string } } : {}),
  };
  return { given: named, provider: docker !== undefined ? "docker" : "srt", spec };
}

/** The rules given that differ from an open sandbox's. */
function conflicts(open: SandboxRef, rules: ResolvedRules): Rule[] {
  return rules.given.filter((rule) => {
    switch (rule) {
      case "read":
      case "write":
      case "network":
        return !sameSet(open.spec[rule], rules.spec[rule]);
      case "srt":
        return open.provider !== "srt";
      case "docker":
        return open.provider !== "docker" || open.spec.docker?.image !== rules.spec.docker?.image;
      default:
        return rule satisfies never;
    }
  });
}

export class Sandboxes {
  private readonly byKey = new Map<string, { ref: SandboxRef }>();
  /** The refs this run made: an agent's `sandbox` is one of these, or an inline spec. */
  private readonly refs = new WeakSet<object>();

  constructor(private readonly attempt: Attempt) {}

  async open(spec: SandboxSpec): Promise<SandboxRef> {
    await this.attempt.unlessAbandoned();
    if (typeof spec !== "object" || spec === null || Array.isArray(spec)) {
      throw new TypeError("wf.sandboxes.open takes { key, read?, write?, network?, srt? | docker? }");
    }
    const key: unknown = spec.key;
    if (typeof key !== "string" || key === "") throw new TypeError("wf.sandboxes.open needs a key");
    if (key.startsWith("agent:")) {
      throw new WorkflowRuleError(`sandbox key "${key}" is taken: "agent:<key>" is the private sandbox of an agent given an inline spec`);
    }
    if (!SANDBOX_KEY.test(key)) throw new TypeError(`sandbox key ${shown(key)} is letters, digits, '.', '_' and '-'`);
    const rules = resolveRules(`sandbox "${key}"`, spec, this.attempt.cwd, ["key"]);
    const existing = this.byKey.get(key);
    if (!existing) return this.openSandbox(key, rules);
    const differ = conflicts(existing.ref, rules);
    if (differ.length) throw new WorkflowRuleError(`sandbox "${key}" is already open with another ${differ.join(", ")}`);
    return existing.ref;
  }

  /** @internal Checks an agent's `sandbox` (a ref, or an inline spec) and opens nothing; undefined for none. */
  planFor(agent: string, given: unknown): PlannedSandbox | undefined {
    if (given === undefined) return undefined;
    if (typeof given === "object" && given !== null && this.refs.has(given)) return { key: (given as SandboxRef).key };
    if (typeof given !== "object" || given === null || Array.isArray(given)) {
      throw new TypeError(`agent "${agent}": its sandbox is a ref from wf.sandboxes.open or a sandbox's rules, not ${shown(given)}`);
    }
    const key = privateSandboxKey(agent);
    if ("key" in given) {
      throw new TypeError(`agent "${agent}": an inline sandbox has no key (it is the agent's own, "${key}"); wf.sandboxes.open opens one agents share`);
    }
    return { key, rules: resolveRules(`sandbox "${key}"`, given, this.attempt.cwd, []) };
  }

  /** @internal The plan that gives another agent (a fork) the sandbox `sandbox` is in. */
  planOf(sandbox: AgentSandbox): PlannedSandbox {
    return { key: sandbox.key };
  }

  /** @internal Whether an agent given `current` (or none) was given what `plan` asks, for a reopen. */
  matches(current: AgentSandbox | undefined, plan: PlannedSandbox): boolean {
    if (!current || current.key !== plan.key) return false;
    const open = this.byKey.get(plan.key);
    return !plan.rules || (open !== undefined && conflicts(open.ref, plan.rules).length === 0);
  }

  /** @internal Gives `agent`, running at `execution`, its planned sandbox (opening an inline one): what its host launches it in. */
  enter(agent: string, plan: PlannedSandbox, execution: Execution): AgentSandbox {
    let open = this.byKey.get(plan.key);
    if (!open) {
      this.openSandbox(plan.key, plan.rules!);
      open = this.byKey.get(plan.key)!;
    } else if (plan.rules && conflicts(open.ref, plan.rules).length) {
      throw new WorkflowRuleError(`sandbox "${plan.key}" is already open with another ${conflicts(open.ref, plan.rules).join(", ")}`);
    }
    const { key, provider, spec } = open.ref;
    const given: AgentSandbox = { key, provider, spec: copyOf(spec), domains: unique([...spec.network, ...modelApiHosts(execution.harness)]) };
    this.attempt.settings.sandboxes!.entered(agent, copyOf(given));
    return given;
  }

  private openSandbox(key: string, rules: ResolvedRules): SandboxRef {
    const provider = this.attempt.settings.sandboxes;
    if (!provider) throw new Error(`sandbox "${key}": the run has no sandbox provider, so nothing would confine its agents`);
    const ref: SandboxRef = Object.freeze({ key, provider: rules.provider, spec: deepFreeze(copyOf(rules.spec)) });
    try {
      provider.opened(copyOf(ref));
    } catch (error) {
      throw new Error(`sandbox "${key}": its provider refused it: ${messageOf(error)}`);
    }
    this.refs.add(ref);
    this.byKey.set(key, { ref });
    return ref;
  }
}

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (typeof inner === "object" && inner !== null) deepFreeze(inner);
  return Object.freeze(value);
}
