// The sandbox provider of a test: a fake that confines nothing. It keeps what each sandbox was
// opened with and who was put in it, so a test checks what each agent was given (`run.sandboxes`);
// what a real provider enforces is for the sandbox evals.

import type { SandboxProvider } from "../workflow/host.ts";
import type { AgentSandbox, SandboxRecord, SandboxRef } from "../workflow/sandboxTypes.ts";

export class FakeSandboxes implements SandboxProvider {
  /** Every sandbox opened, in order, with the agents given it and every domain any of them reaches. */
  readonly records: SandboxRecord[] = [];

  opened(sandbox: SandboxRef): void {
    this.records.push({ key: sandbox.key, provider: sandbox.provider, spec: structuredClone(sandbox.spec), domains: [...sandbox.spec.network], agents: [] });
  }

  entered(agent: string, sandbox: AgentSandbox): void {
    const record = this.records.find((candidate) => candidate.key === sandbox.key);
    if (!record) throw new Error(`agent "${agent}" was put in sandbox "${sandbox.key}", which was never opened`);
    record.agents.push(agent);
    for (const domain of sandbox.domains) if (!record.domains.includes(domain)) record.domains.push(domain);
  }
}
