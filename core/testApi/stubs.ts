// `vi.stubGlobal`, `vi.stubEnv` and their undoing, as Vitest 4 does them (its `createVitest`):
// the first value each name had is kept until `unstubAllGlobals`/`unstubAllEnvs`, which the
// runner also calls when a file ends (a stub never reaches the next file).

const stubbedGlobals = new Map<PropertyKey, PropertyDescriptor | undefined>();
const stubbedEnvs = new Map<string, string | undefined>();
/** Vitest keeps these in `import.meta.env` as booleans; in process.env they are "1" or "". */
const ENV_BOOLEANS = ["PROD", "DEV", "SSR"];

export function stubGlobal(name: string | symbol | number, value: unknown): void {
  if (!stubbedGlobals.has(name)) stubbedGlobals.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: true });
}

export function stubEnv(name: string, value: string | boolean | undefined): void {
  const env = process.env;
  if (!stubbedEnvs.has(name)) stubbedEnvs.set(name, env[name]);
  if (ENV_BOOLEANS.includes(name)) env[name] = value ? "1" : "";
  else if (value === undefined) delete env[name];
  else env[name] = String(value);
}

export function unstubAllGlobals(): void {
  for (const [name, original] of stubbedGlobals) {
    if (!original) Reflect.deleteProperty(globalThis, name);
    else Object.defineProperty(globalThis, name, original);
  }
  stubbedGlobals.clear();
}

export function unstubAllEnvs(): void {
  const env = process.env;
  for (const [name, original] of stubbedEnvs) {
    if (original === undefined) delete env[name];
    else env[name] = original;
  }
  stubbedEnvs.clear();
}

/** The file's stubs undone when it ends (the runner calls it). */
export function endFileStubs(): void {
  unstubAllGlobals();
  unstubAllEnvs();
}

/** The global a bundle's `import.meta.env` reads (transform.ts defines it so): Vitest's proxy over process.env. */
export const IMPORT_META_ENV_GLOBAL = "__turnlensImportMetaEnv";

/**
 * `import.meta.env` as Vitest gives it to test files (its createImportMetaEnvProxy): process.env
 * itself, so a change through either is seen by both, with DEV, PROD and SSR read and written as
 * booleans ("1" or "" in process.env). The worker installs it once, with the values Vitest puts in
 * process.env for a run in its node environment (mode "test").
 */
export function installImportMetaEnv(): void {
  const env = process.env;
  env.MODE ??= "test";
  env.DEV ??= "1";
  env.PROD ??= "";
  env.BASE_URL ??= "/";
  env.NODE_ENV ??= "test";
  env.SSR = "1";
  const proxy = new Proxy(env, {
    get(_target, key) {
      if (typeof key !== "string") return undefined;
      if (ENV_BOOLEANS.includes(key)) return !!env[key];
      return env[key];
    },
    set(_target, key, value) {
      if (typeof key !== "string") return true;
      if (ENV_BOOLEANS.includes(key)) env[key] = value ? "1" : "";
      else env[key] = value;
      return true;
    },
  });
  Object.defineProperty(globalThis, IMPORT_META_ENV_GLOBAL, { value: proxy, configurable: true, writable: false, enumerable: false });
}
