// The workflow API's public types for sandboxes: what `wf.sandboxes.open` and an agent's `sandbox`
// take, and the records of what each agent was given (`run.agentOf(key).sandbox`, `run.sandboxes`).

/** What a sandbox lets its agents do. Paths are absolute or relative to `wf.cwd`. */
export interface SandboxRules {
  /** Files and directories its agents may read. */
  read?: readonly string[];
  /** Files and directories its agents may write (and read). */
  write?: readonly string[];
  /** Domains its agents may reach, such as "github.com" or "*.npmjs.org"; their harness's model API is added. */
  network?: readonly string[];
  /** Confined by srt, the sandbox runtime: the provider when neither is given. */
  srt?: true;
  /** Confined in a docker container from `image`. */
  docker?: { image: string };
}

/** A sandbox agents share: its key, and its rules. */
export interface SandboxSpec extends SandboxRules {
  /** Letters, digits, '.', '_' and '-'; `agent:<key>` is an agent's private sandbox. */
  key: string;
}

export type SandboxProviderName = "srt" | "docker";

/** A sandbox's rules as the engine resolved them: paths absolute, every list given. */
export interface ResolvedSandboxSpec {
  read: string[];
  write: string[];
  network: string[];
  docker?: { image: string };
}

/** What `wf.sandboxes.open` resolves to; an agent's `sandbox` takes it. */
export interface SandboxRef {
  readonly key: string;
  readonly provider: SandboxProviderName;
  readonly spec: ResolvedSandboxSpec;
}

/** The sandbox an agent was given (`run.agentOf(key).sandbox`). */
export interface AgentSandbox {
  key: string;
  provider: SandboxProviderName;
  spec: ResolvedSandboxSpec;
  /** Everything the agent can reach from it: the sandbox's network, then its harness's model API. */
  domains: string[];
}

/** A sandbox of the run (`run.sandboxes`): the agents in it, and what any of them can reach. */
export interface SandboxRecord extends AgentSandbox {
  /** The agents given it, in the order they were opened. */
  agents: string[];
}

export interface WorkflowSandboxes {
  /**
   * Opens a sandbox agents share, or returns the one open under `key` when each rule given matches;
   * omitted ones don't constrain.
   */
  open(spec: SandboxSpec): Promise<SandboxRef>;
}
