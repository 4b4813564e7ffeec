// The engine's import graph (core/workflow/): no cycle, and every import points to the file's own
// layer or one below, as ARCHITECTURE.md's "The engine's layers" lists them. Imports are read with
// the TypeScript compiler's parser.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

const ROOT = resolve(import.meta.dirname, "..");
const ENGINE = "core/workflow";

interface ImportEdge {
  from: string;
  to: string;
  /** False for `import type`, `export type` and `import("…")` in a type: nothing is loaded. */
  runTime: boolean;
}

function engineFiles(): string[] {
  return readdirSync(join(ROOT, ENGINE))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
    .sort();
}

// Under `verbatimModuleSyntax` an `import { type A } from "./x"` is kept as `import {} from "./x"`,
// which still loads ./x; only the statement-level `type` keyword removes the import.
function edgesOf(file: string, known: ReadonlySet<string>): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, ENGINE, file), "utf8"), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: ts.Expression | ts.TypeNode | undefined, runTime: boolean) => {
    let text: string | undefined;
    if (specifier && ts.isStringLiteralLike(specifier)) text = specifier.text;
    else if (specifier && ts.isLiteralTypeNode(specifier) && ts.isStringLiteralLike(specifier.literal)) text = specifier.literal.text;
    if (text === undefined || !text.startsWith("./")) return;
    const to = text.slice(2);
    if (known.has(to)) edges.push({ from: file, to, runTime });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.phaseModifier !== ts.SyntaxKind.TypeKeyword);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, !node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, !node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], true);
    else if (ts.isImportTypeNode(node)) add(node.argument, false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

function engineImports(): ImportEdge[] {
  const files = engineFiles();
  const known = new Set(files);
  return files.flatMap((file) => edgesOf(file, known));
}

/**
 * Every strongly connected group of files (Tarjan), each written as its files and one shortest
 * cycle through the first of them: `a.ts, b.ts: a.ts → b.ts → a.ts`.
 */
function cyclesOf(edges: readonly Pick<ImportEdge, "from" | "to">[]): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      group.push(member);
      if (member === file) break;
    }
    if (group.length > 1 || (next.get(file) ?? []).includes(file)) groups.push(group.sort());
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) connect(file);
  return groups.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? "")).map((group) => `${group.join(", ")}: ${shortestCycle(group, next).join(" → ")}`);
}

function shortestCycle(group: string[], next: ReadonlyMap<string, string[]>): string[] {
  const start = group[0] ?? "";
  const members = new Set(group);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const file = queue[head] ?? "";
    for (const to of next.get(file) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [file];
        for (let back = cameFrom.get(file); back !== undefined; back = cameFrom.get(back)) path.unshift(back);
        return [...path, start];
      }
      if (!cameFrom.has(to) && to !== start) {
        cameFrom.set(to, file);
        queue.push(to);
      }
    }
  }
  return [start];
}

test("no engine file loads itself at run time through a chain of imports", () => {
  expect(cyclesOf(engineImports().filter((edge) => edge.runTime))).toEqual([]);
});

test("no engine file reaches itself through any chain of imports, type-only ones included", () => {
  expect(cyclesOf(engineImports())).toEqual([]);
});

test("the cycle check sees the engine's imports, both kinds, so an empty answer means something", () => {
  const edges = engineImports();
  expect(edges).toContainEqual({ from: "engine.ts", to: "agents.ts", runTime: true });
  expect(edges).toContainEqual({ from: "types.ts", to: "messageTypes.ts", runTime: false });
  expect(edges.length).toBeGreaterThan(100);
});

test("the cycle check names each cycle's files and one shortest way round it", () => {
  const edges = [
    { from: "a.ts", to: "b.ts" },
    { from: "b.ts", to: "c.ts" },
    { from: "c.ts", to: "a.ts" },
    { from: "c.ts", to: "b.ts" },
    { from: "c.ts", to: "d.ts" },
    { from: "e.ts", to: "e.ts" },
  ];
  expect(cyclesOf(edges)).toEqual(["a.ts, b.ts, c.ts: a.ts → b.ts → c.ts → a.ts", "e.ts: e.ts → e.ts"]);
});

/** ARCHITECTURE.md's numbered list under "## The engine's layers": each file with its layer's number and name. */
function documentedLayers(): Map<string, { layer: number; name: string }> {
  const text = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");
  const section = text.split(/^## /m).find((part) => part.startsWith("The engine's layers"));
  if (section === undefined) throw new Error(`ARCHITECTURE.md has no section "## The engine's layers"`);
  const layers = new Map<string, { layer: number; name: string }>();
  for (const item of section.matchAll(/^(\d+)\. ([^:\n]+):((?:.|\n {3})*)/gm)) {
    const [, number, name, files] = item;
    for (const file of (files ?? "").matchAll(/`(\w+\.ts)`/g)) {
      const named = file[1] ?? "";
      if (layers.has(named)) throw new Error(`ARCHITECTURE.md names ${named} in two layers`);
      layers.set(named, { layer: Number(number), name: name ?? "" });
    }
  }
  return layers;
}

/** Each import that reaches a layer above the importing file's own, as `from (layer) imports to (layer)`. */
function upwardImports(edges: readonly Pick<ImportEdge, "from" | "to">[], layers: ReadonlyMap<string, { layer: number; name: string }>): string[] {
  const layerOf = (file: string) => layers.get(file)?.layer ?? Number.NaN;
  const label = (file: string) => {
    const place = layers.get(file);
    return place ? `${file} (${place.layer}. ${place.name})` : `${file} (in no layer)`;
  };
  // NaN compares false: an import from or to a file in no layer is reported too.
  return edges.filter(({ from, to }) => !(layerOf(to) <= layerOf(from))).map(({ from, to }) => `${label(from)} imports ${label(to)}`);
}

test("ARCHITECTURE.md puts every engine file in one of the engine's layers, and names no file that is gone", () => {
  const layers = documentedLayers();
  const files = engineFiles();
  expect({ unlisted: files.filter((file) => !layers.has(file)), gone: [...layers.keys()].filter((file) => !files.includes(file)) }).toEqual({ unlisted: [], gone: [] });
});

test("every engine file imports only from its own layer or those below", () => {
  expect(upwardImports(engineImports(), documentedLayers())).toEqual([]);
});

test("the layer check names each import that reaches up, and the layers it joins", () => {
  const layers = new Map([
    ["types.ts", { layer: 1, name: "Types" }],
    ["agents.ts", { layer: 2, name: "The registry" }],
  ]);
  const edges = [
    { from: "agents.ts", to: "types.ts" },
    { from: "types.ts", to: "agents.ts" },
    { from: "types.ts", to: "new.ts" },
  ];
  expect(upwardImports(edges, layers)).toEqual(["types.ts (1. Types) imports agents.ts (2. The registry)", "types.ts (1. Types) imports new.ts (in no layer)"]);
});
