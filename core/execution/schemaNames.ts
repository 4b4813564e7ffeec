// Names for the schemas a test's turns asked for: the exports of the modules a test file imports
// whose canonical JSON equals a turn's schema, with a skeleton value TypeBox builds from the
// export. The language server's "add the missing entry" quick fix writes `answer(NAME, skeleton)`.
import { readFile, writeFile, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Value } from "typebox/value";
import { canonicalJson } from "../workflow/json.ts";
import type { FileReport } from "./report.ts";
import type { SchemaNamer } from "../testing/schemaNaming.ts";
import { bundlePathFor, bundleTestFile } from "./transform.ts";
import { importModule } from "./importModule.ts";

/** An exported schema that equals a turn's schema. */
export interface SchemaName {
  /** The turn's schema as canonical JSON. */
  schema: string;
  /** The export's name, e.g. `SUMMARY`. */
  name: string;
  /** The module specifier it is exported from, as the test file wrote it, e.g. `./summarize`. */
  module: string;
  /** `Value.Create` of the export: the smallest value the schema accepts, as far as TypeBox knows. */
  skeleton?: unknown;
}

/** Problems whose quick fix writes a new entry for a turn. */
const NEEDS_ENTRY = new Set(["list-exhausted", "agent-unscripted"]);

/** The canonical schemas a quick fix would name: of the turns a new entry would answer, and the ones a mismatching answer should have used. */
export function wantedSchemas(report: FileReport): Set<string> {
  const wanted = new Set<string>();
  for (const test of report.tests) {
    for (const run of test.runs) {
      for (const problem of run.problems) {
        if (problem.code === "schema-mismatch" && problem.expectedSchema !== undefined && problem.expectedSchema !== "text")
          wanted.add(canonicalJson(problem.expectedSchema));
        if (!NEEDS_ENTRY.has(problem.code)) continue;
        const turn = run.turns.find((t) => t.agent === problem.agent && t.n === problem.turn);
        if (turn?.schema !== undefined) wanted.add(canonicalJson(turn.schema));
      }
    }
  }
  return wanted;
}

/**
 * Imports `modules` (specifiers relative to `testFile`'s folder) through the same bundler the
 * tests use and returns the exports matching `wanted`. Never throws: a module that fails to load
 * simply names nothing.
 */
export async function findSchemaNames(testFile: string, modules: readonly string[], wanted: ReadonlySet<string>): Promise<SchemaName[]> {
  if (wanted.size === 0 || modules.length === 0) return [];
  // A virtual entry next to the test file, so relative specifiers resolve as the test's do.
  const entry = join(dirname(testFile), `__turnlens_schemas__.ts`);
  const source = modules.map((module, index) => `export * as m${index} from ${JSON.stringify(module)};`).join("\n");
  const outfile = bundlePathFor(entry);
  const found: SchemaName[] = [];
  try {
    const bundle = await bundleTestFile(entry, outfile, source);
    await writeFile(outfile, bundle.code);
    const namespace = (await importModule(pathToFileURL(outfile).href)) as Record<string, Record<string, unknown>>;
    modules.forEach((module, index) => {
      for (const [name, value] of Object.entries(namespace[`m${index}`] ?? {})) {
        if (typeof value !== "object" || value === null) continue;
        let schema: string;
        try {
          schema = canonicalJson(value);
        } catch {
          continue; // cycles and the like are no schema
        }
        if (!wanted.has(schema) || found.some((f) => f.schema === schema)) continue;
        const match: SchemaName = { schema, name, module };
        try {
          match.skeleton = Value.Create(value as never);
        } catch {
          // no skeleton; the fix writes an empty object
        }
        found.push(match);
      }
    });
  } catch {
    // the modules could not be bundled or loaded: no names
  } finally {
    await unlink(outfile).catch(() => {});
  }
  return found;
}

const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.\.?\/[^"'\n]+)["']/g;

/** The relative modules a test file's source imports or re-exports, in order, each once. */
export function importedModules(source: string): string[] {
  return [...new Set([...source.matchAll(RELATIVE_IMPORT)].map((match) => match[1]!))];
}

/**
 * What names the schemas of a schema mismatch while `testFile` runs (core/testing/schemaNaming.ts):
 * the exports of the modules it imports, the workflow's among them. `source` is the text run, when
 * it is an editor's unsaved buffer rather than the file on disk.
 */
export function schemaNamerFor(testFile: string, source?: string): SchemaNamer {
  const textOf = async (file: string) => (file === testFile && source !== undefined ? source : await readFile(file, "utf8").catch(() => ""));
  return {
    async exports(schemas) {
      const wanted = new Set(schemas.map((schema) => canonicalJson(schema)));
      const found = await findSchemaNames(testFile, importedModules(await textOf(testFile)), wanted);
      return new Map(found.map((match) => [match.schema, match.name]));
    },
    async argumentAt(site) {
      const text = await textOf(site.file);
      const line = text.split("\n")[site.line - 1] ?? "";
      const name = SCHEMA_ARGUMENT.exec(line.slice(Math.max(0, site.column - 1)))?.[1];
      // A helper's parameter (`answer(schema, …)`) names no schema: only a const the file declares does.
      return name && new RegExp(`^(?:export\\s+)?const\\s+${name.replace(/\$/g, "\\$")}\\s*=`, "m").test(text) ? name : undefined;
    },
  };
}

/** `answer(NOTE, …)` at the start of the text: the schema argument, when it is a name. */
const SCHEMA_ARGUMENT = /^answer\s*\(\s*([A-Za-z_$][\w$]*)\s*,/;
