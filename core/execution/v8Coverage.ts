// Line coverage in the worker (`turnlens test --coverage`, the editor's Run with Coverage): V8's
// precise coverage of a test file's bundle, mapped back through the bundle's inline source map to
// the project's own files as Istanbul's data, with ast-v8-to-istanbul (what Vitest's v8 provider uses).
import { Session } from "node:inspector/promises";
import { isAbsolute, sep } from "node:path";
import { parse } from "acorn";
import convert from "ast-v8-to-istanbul";
import { inlineSourceMap } from "./bundleMaps.ts";

/** Istanbul's data of one source file (istanbul-lib-coverage's `FileCoverageData`), by absolute path. */
export type LineCoverageData = Record<string, unknown>;

let session: Session | undefined;
let starting: Promise<void> | undefined;

/**
 * Starts V8's block coverage in this process, once: the bundles compiled from now on are counted.
 * A bundle compiled before it would report whole functions only, so a run asks before it imports.
 */
export function startCoverage(): Promise<void> {
  starting ??= (async () => {
    const opened = new Session();
    opened.connect();
    await opened.post("Profiler.enable");
    await opened.post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
    session = opened;
  })();
  return starting;
}

/**
 * Stops counting (a run without coverage after one with it, in the editor's long-lived workers):
 * block counting slows every function it sees.
 */
export async function stopCoverage(): Promise<void> {
  const running = session;
  if (!running) return;
  session = undefined;
  starting = undefined;
  await running.post("Profiler.stopPreciseCoverage");
  running.disconnect();
}

/** What a file's run loaded: its bundle's URL and text (the inline source map in it). */
export interface LoadedBundle {
  url: string;
  code: string;
}

/**
 * The coverage of `bundle` since the last call (V8's counters restart at each take), as Istanbul's
 * data of each project file in it: not `excluded` (the test file, the setup files), not node_modules.
 * Empty when coverage was never started or the bundle never ran.
 */
export async function takeCoverage(bundle: LoadedBundle, excluded: ReadonlySet<string>): Promise<LineCoverageData> {
  if (!session) return {};
  const taken = (await session.post("Profiler.takePreciseCoverage")) as { result: Array<{ url: string; functions: unknown[] }> };
  const script = taken.result.find((each) => each.url === bundle.url);
  if (!script) return {};
  const sourceMap = inlineSourceMap(bundle.code);
  if (!sourceMap) return {};
  const data = await convert({
    code: bundle.code,
    coverage: script as never,
    ast: parse(bundle.code, { ecmaVersion: "latest", sourceType: "module" }) as never,
    sourceMap: sourceMap as never,
  });
  const kept: LineCoverageData = {};
  for (const [path, file] of Object.entries(data)) {
    if (excluded.has(path) || path.includes(`${sep}node_modules${sep}`) || !isAbsolute(path)) continue;
    // `meta` is the converter's own bookkeeping (a Map among it), not Istanbul's data.
    const { meta: _meta, ...istanbul } = file as typeof file & { meta?: unknown };
    kept[path] = istanbul;
  }
  return kept;
}
