// The modules Turnlens serves to test files from its own copies, so a folder with nothing
// installed works and the test's `testWorkflow` publishes into the same trace registry the runner
// listens to. Bundled test files read them from a global registry (see transform.ts).
import { join } from "node:path";
import { turnlensRoot } from "./paths.ts";

type Loader = () => Promise<Record<string, unknown>>;

const testApi: Loader = () => import("../testApi/testApi.ts");
const vitest: Loader = () => import("../testApi/vitestModule.ts");
const workflow: Loader = () => import("../workflow/index.ts");
const testing: Loader = () => import("../testing/index.ts");
const client: Loader = () => import("../client/index.ts");
const trace: Loader = () => import("../testing/trace.ts");

const loaders: Record<string, Loader> = {
  "agentswf/workflow": workflow,
  "turnlens/workflow": workflow,
  "agentswf/testing": testing,
  "turnlens/testing": testing,
  "agentswf/client": client,
  "turnlens/client": client,
  "turnlens/trace": trace,
  "bun:test": testApi,
  vitest,
  typebox: () => import("typebox"),
  "typebox/value": () => import("typebox/value"),
  "typebox/compile": () => import("typebox/compile"),
  "typebox/type": () => import("typebox/type"),
  "typebox/schema": () => import("typebox/schema"),
  "typebox/guard": () => import("typebox/guard"),
  "typebox/format": () => import("typebox/format"),
  "typebox/system": () => import("typebox/system"),
  "typebox/error": () => import("typebox/error"),
};

const REGISTRY = Symbol.for("turnlens.modules");

type Registry = Record<string, Record<string, unknown>>;

/**
 * The registry this copy of the module made, if it made it. Only the worker's own copy (which
 * makes it at its start) puts served modules in: a test file that bundles in-process (Turnlens's
 * own tests of transform.ts) runs another copy of this module, whose instances of Turnlens's
 * files would otherwise be served to every later file of the worker (a `turnlens/trace` whose
 * `problemsOf` knew none of the served `testWorkflow`'s errors).
 */
let madeHere: Registry | undefined;

/** What this copy put in the registry it made, by served name: what a file found there must be these. */
const placed = new Map<string, Record<string, unknown>>();

/** The registry bundles read served modules from, made now if it is not yet (the worker's start). */
export function registry(): Registry {
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  const found = holder[REGISTRY];
  if (found) return found;
  madeHere = holder[REGISTRY] = {};
  return madeHere;
}

/** Whether test files get `name` from Turnlens. */
export function isServed(name: string): boolean {
  return Object.hasOwn(loaders, name);
}

export const servedNames: readonly string[] = Object.keys(loaders);

/** Loads a served module (into the registry, when this copy made it) and returns it. */
export async function loadServed(name: string): Promise<Record<string, unknown>> {
  const reg = registry();
  const existing = reg[name];
  if (existing) return existing;
  const loader = loaders[name];
  if (!loader) throw new Error(`turnlens does not serve "${name}"`);
  const mod = await loader();
  if (reg === madeHere) {
    reg[name] = mod;
    placed.set(name, mod);
  }
  return mod;
}

/**
 * The served names a test file put into the worker's registry or replaced there (hostile code can
 * reach it through its global symbol), each put back as this copy left it, as sentence objects
 * for the realm check's warning: the pool replaces the worker before its next file, as after a
 * changed builtin (realmCheck.ts), so no later file is served what a file planted.
 */
export function changedServedModules(): string[] {
  const reg = madeHere;
  if (!reg) return [];
  const changed: string[] = [];
  for (const name of servedNames) {
    const now = Object.getOwnPropertyDescriptor(reg, name);
    const mine = placed.get(name);
    if (mine === undefined ? now === undefined : now !== undefined && now.value === mine) continue;
    changed.push(`the served module "${name}"`);
    try {
      if (mine === undefined) delete reg[name];
      else Object.defineProperty(reg, name, { value: mine, writable: true, enumerable: true, configurable: true });
    } catch {
      // Made non-configurable: the worker is replaced all the same.
    }
  }
  return changed;
}

/**
 * Turnlens's own source files that are served: a test importing one of them by path gets the
 * served instance, not a second copy bundled into the test.
 */
export function servedSourceFiles(): Map<string, string> {
  const root = turnlensRoot();
  return new Map([
    [join(root, "core", "workflow", "index.ts"), "agentswf/workflow"],
    [join(root, "core", "testing", "index.ts"), "agentswf/testing"],
    [join(root, "core", "client", "index.ts"), "agentswf/client"],
    [join(root, "core", "testing", "trace.ts"), "turnlens/trace"],
    [join(root, "core", "runner", "testApi.ts"), "bun:test"],
  ]);
}
