// The source maps of the last bundles this worker loaded, which the call sites of their tests
// (stackText.ts) are mapped through: parsed here and dropped two files later, where Node's own
// formatting would keep every file's parsed map for the worker's life (most of what a file kept).
import { findSourceMap, SourceMap } from "node:module";
import { isAbsolute } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { SourceSite } from "../testing/trace.ts";

/** How many bundles' maps are at hand: the file running, and the one before it (a site read as the next began). */
const KEPT = 2;

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;(?:charset=utf-8;)?base64,([A-Za-z0-9+/=]+)\s*$/;

/** The source map inline at the end of a bundle's text (esbuild's `sourcemap: "inline"`), parsed; undefined when it has none. */
export function inlineSourceMap(code: string): unknown {
  const map = INLINE_MAP.exec(code)?.[1];
  return map === undefined ? undefined : JSON.parse(Buffer.from(map, "base64").toString("utf8"));
}

interface BundleMap {
  /** The bundle's text until its map is first needed. */
  code: string | undefined;
  map: SourceMap | undefined;
}

const bundles = new Map<string, BundleMap>();

/** Notes the bundle at `url` (its file URL) and its text, whose inline map its frames are mapped through from now on. */
export function noteBundle(url: string, code: string): void {
  bundles.set(url, { code, map: undefined });
  for (const oldest of bundles.keys()) {
    if (bundles.size <= KEPT) break;
    bundles.delete(oldest);
  }
}

/** The parsed map of `bundle`, its sources made absolute as Node's cache makes them (sourcesToAbsolute). */
function mapOf(url: string, bundle: BundleMap): SourceMap | undefined {
  if (bundle.map || bundle.code === undefined) return bundle.map;
  const code = bundle.code;
  bundle.code = undefined;
  try {
    const payload = inlineSourceMap(code) as { sources: string[]; sourceRoot?: string } | undefined;
    if (!payload) return undefined;
    payload.sources = payload.sources.map((source) => {
      const rooted = (payload.sourceRoot ?? "") + source;
      return isAbsolute(rooted) ? pathToFileURL(rooted).href : new URL(rooted, url).href;
    });
    payload.sourceRoot = "";
    bundle.map = new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    bundle.map = undefined;
  }
  return bundle.map;
}

/**
 * Where a frame at `line`:`column` (1-based, as V8 gives them) of `fileName` comes from, found as
 * Node's formatting finds it: through the bundle's own map when it is one of the last bundles,
 * else through Node's cache (another file with a map); undefined when nothing maps it.
 */
export function mapBundleFrame(fileName: string, line: number, column: number): SourceSite | undefined {
  const bundle = bundles.get(fileName);
  let map: SourceMap | undefined;
  try {
    map = bundle ? mapOf(fileName, bundle) : findSourceMap(fileName);
  } catch {
    return undefined;
  }
  if (!map) return undefined;
  const entry = map.findEntry(line - 1, column - 1) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return undefined;
  const file = entry.originalSource.startsWith("file://") ? fileURLToPath(entry.originalSource) : entry.originalSource;
  return { file, line: entry.originalLine + 1, column: entry.originalColumn + 1 };
}
