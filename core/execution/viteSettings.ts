// What a project's config gives each test file the way a Vite config gives it under Vitest: the
// `define` (viteDefine.ts), the `env`, the `.env` files' VITE_ variables (dotEnv.ts) and the
// worker's VITEST_POOL_ID/VITEST_WORKER_ID. The CLI and the language server send it with each run;
// the worker applies it before the file runs and its bundles take the replacements.
import { readDotEnv } from "./dotEnv.ts";
import { globalsSetForEachFile } from "./realmCheck.ts";
import { type SplitDefine, setDefineGlobals, splitDefine } from "./viteDefine.ts";

/** Sent with each run: plain strings, so it crosses the worker's JSON channel as it is. */
export interface ViteSettings {
  /** The folder the `.env` files are read from: the config's, or the run's current folder. */
  root: string;
  /** The config's `define`, each value as source text. */
  define?: Record<string, string>;
  /** The config's `env`. */
  env?: Record<string, string>;
}

/** The settings of a run from its config (or its folder, when it has none). */
export function viteSettingsOf(config: { root: string; define?: Record<string, string>; env?: Record<string, string> } | undefined, cwd: string): ViteSettings {
  return { root: config?.root ?? cwd, ...(config?.define ? { define: config.define } : {}), ...(config?.env ? { env: config.env } : {}) };
}

/** The variables the worker started with: as under Vite, they win over a `.env` file's. */
const startedWith = new Set(Object.keys(process.env));
/** The globals the worker started with: a define's global of another name is made afresh for each file. */
const globalsAtStart = new Set(Reflect.ownKeys(globalThis));

let current: SplitDefine = { globals: [], env: {}, replace: {} };

/** Which worker of the pool this is (from 1) and which worker process (from 0), as Vitest 4 numbers them. */
export interface WorkerIds {
  poolId: number;
  workerId: number;
}

/** Bundles made from now on take the settings' replacements (a bundle made ahead of its run too). */
export function useViteSettings(settings: ViteSettings | undefined): void {
  current = splitDefine(settings?.define ?? {});
}

/**
 * Applies the settings in this worker before a file runs: the `.env` files' variables (where the
 * worker did not start with them), the define's variables and the config's `env` (which win), the
 * worker's ids, and the define's globals; and its replacements, as useViteSettings.
 */
export function applyViteSettings(settings: ViteSettings | undefined, ids?: WorkerIds): void {
  useViteSettings(settings);
  const env = process.env;
  if (ids) {
    env.VITEST_POOL_ID = String(ids.poolId);
    env.VITEST_WORKER_ID = String(ids.workerId);
  }
  if (!settings) return;
  for (const [name, value] of Object.entries(readDotEnv(settings.root))) if (!startedWith.has(name)) env[name] = value;
  Object.assign(env, current.env, settings.env ?? {});
  // Made afresh (a nested object too), so what one file assigned to them never reaches the next; the realm check leaves them be.
  const roots = [...new Set(current.globals.map(([name]) => name.split(".")[0]!))].filter((root) => !globalsAtStart.has(root));
  for (const root of roots) Reflect.deleteProperty(globalThis, root);
  globalsSetForEachFile(roots);
  setDefineGlobals(current.globals);
}

/** The names esbuild replaces in the bundles made now (its `define`). */
export function defineReplacements(): Record<string, string> {
  return current.replace;
}
