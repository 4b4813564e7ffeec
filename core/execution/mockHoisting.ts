// A test file that mocks modules, rewritten before esbuild bundles it: TypeScript to JavaScript,
// then Vitest's own hoistMocks (vi.mock, vi.unmock and vi.hoisted above the imports, which become
// `await import`), with a source map from the result back to the file's own lines.
import { parse } from "acorn";
import { transform } from "esbuild";
import { hoistMocks } from "@vitest/mocker/transforms";

/** What the rewrite needs of the plan: how to rewrite a later `import("x")` of a mocked module. */
export interface HoistOptions {
  /** The file's opening statement (the mocks table), placed before everything hoisted. */
  prologue: string;
  /** The replacement for `import(<literal>)` of a mocked specifier, or undefined to leave it. */
  dynamicImport(specifier: string): string | undefined;
  /** Whether the text calls anything hoistMocks must see (a cheap test before parsing). */
  test: RegExp;
}

type AcornNode = { type: string; start: number; end: number; [key: string]: unknown };

function visit(node: unknown, each: (node: AcornNode) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) visit(child, each);
    return;
  }
  if (!node || typeof node !== "object" || typeof (node as AcornNode).type !== "string") return;
  each(node as AcornNode);
  for (const [key, value] of Object.entries(node)) {
    if (key !== "loc" && value && typeof value === "object") visit(value, each);
  }
}

/** The mock calls whose path may be written `import("./x")` (hoistMocks's list). */
const MOCK_METHODS = new Set(["mock", "unmock", "doMock", "doUnmock", "importActual", "importMock"]);

/** The error hoistMocks throws: a plain object with Vitest's message (and a code frame). */
export class HoistError extends Error {}

/**
 * `text` (the file's TypeScript or JavaScript) as JavaScript with the mocks hoisted, its source map
 * inline (to `file`'s own text, which esbuild follows when it bundles, so a test's line and an
 * error's stack stay the file's own).
 */
export async function hoistedSource(file: string, text: string, loader: "ts" | "tsx" | "js" | "jsx", options: HoistOptions): Promise<string> {
  // esnext: nothing lowered here; the bundle lowers to its target.
  const js = await transform(text, { loader, format: "esm", target: "esnext", sourcemap: "external", sourcefile: file, sourcesContent: false });
  let ast: unknown;
  const parseOnce = (code: string) => (ast = parse(code, { ecmaVersion: "latest", sourceType: "module", allowAwaitOutsideFunction: true, allowHashBang: true }));
  let s: ReturnType<typeof hoistMocks>;
  try {
    s = hoistMocks(js.code, file, parseOnce, { regexpHoistable: options.test });
  } catch (error) {
    if (error instanceof Error) throw error;
    const thrown = error as { message?: unknown; frame?: unknown };
    throw new HoistError(`${String(thrown.message)}${typeof thrown.frame === "string" ? `\n${thrown.frame}` : ""}`);
  }
  if (!s) return `${js.code}\n${inlineMap(js.map)}`;
  // `vi.mock(import("./x"))` names its module by that import, which hoistMocks made the path itself: not an import to reroute.
  const named = new Set<unknown>();
  visit(ast, (node) => {
    const callee = node.callee as (AcornNode & { property?: { name?: unknown } }) | undefined;
    if (node.type !== "CallExpression" || callee?.type !== "MemberExpression" || !MOCK_METHODS.has(callee.property?.name as string)) return;
    const first = (node.arguments as AcornNode[])[0];
    named.add(first?.type === "AwaitExpression" ? first.argument : first);
  });
  // A later `import("./x")` of a mocked module asks the registry (vi.doMock after the first import).
  visit(ast, (node) => {
    if (node.type !== "ImportExpression" || named.has(node)) return;
    const source = node.source as AcornNode & { value?: unknown };
    if (source.type !== "Literal" || typeof source.value !== "string") return;
    const replacement = options.dynamicImport(source.value);
    if (replacement === undefined) return;
    try {
      s.overwrite(node.start, node.end, replacement);
    } catch {
      // Inside what hoistMocks rewrote (vi.mock(import("./x"))): left as it is.
    }
  });
  // A static import of a mocked module, which hoistMocks made `await import("./x")`, gets the
  // registry's module itself, as under Vitest: a namespace import has the factory's names (not the
  // real module's), and reading a name the factory did not return throws.
  for (const node of (ast as { body: AcornNode[] }).body) {
    const source = node.type === "ImportDeclaration" ? (node.source as { value?: unknown }).value : undefined;
    const replacement = typeof source === "string" ? options.dynamicImport(source) : undefined;
    if (replacement === undefined) continue;
    const hoistedLine = s.slice(node.start, node.end);
    const rewritten = hoistedLine.replace(/= await import\((["'])(?:(?!\1)[^\\]|\\.)*\1\);/, () => `= await ${replacement};`);
    if (rewritten !== hoistedLine) s.update(node.start, node.end, rewritten);
  }
  s.prepend(options.prologue);
  const hoisted = s.generateDecodedMap({ hires: true, source: file, includeContent: false });
  const mappings = chain(hoisted.mappings as number[][][], decodeMappings(JSON.parse(js.map).mappings as string));
  const map = { version: 3, sources: [file], sourcesContent: [text], names: [], mappings: encodeMappings(mappings) };
  return `${s.toString()}\n${inlineMap(JSON.stringify(map))}`;
}

function inlineMap(json: string): string {
  return `//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(json).toString("base64")}`;
}

/**
 * The segments of `outer` (the hoisted text → esbuild's JavaScript) carried through `inner`
 * (esbuild's JavaScript → the file): each lands where its JavaScript position came from.
 */
function chain(outer: number[][][], inner: number[][][]): number[][][] {
  return outer.map((line) => {
    const out: number[][] = [];
    for (const segment of line) {
      if (segment.length < 4) continue;
      const innerLine = inner[segment[2]!];
      if (!innerLine || innerLine.length === 0) continue;
      const column = segment[3]!;
      let found: number[] | undefined;
      for (const candidate of innerLine) {
        if (candidate[0]! > column) break;
        found = candidate;
      }
      found ??= innerLine[0];
      if (!found || found.length < 4) continue;
      out.push([segment[0]!, 0, found[2]!, found[3]!]);
    }
    return out;
  });
}

// Base64 VLQ, the source map's number encoding (the spec's, with each field relative to the last).
const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const VALUE = new Map([...DIGITS].map((digit, index) => [digit, index]));

function decodeMappings(mappings: string): number[][][] {
  const lines: number[][][] = [];
  const state = [0, 0, 0, 0, 0];
  for (const lineText of mappings.split(";")) {
    const line: number[][] = [];
    state[0] = 0;
    for (const segmentText of lineText.split(",")) {
      if (segmentText === "") continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const digit of segmentText) {
        const bits = VALUE.get(digit) ?? 0;
        value += (bits & 31) << shift;
        if (bits & 32) {
          shift += 5;
          continue;
        }
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
      const segment = fields.map((field, index) => (state[index] = state[index]! + field));
      line.push(segment);
    }
    lines.push(line);
  }
  return lines;
}

function encodeMappings(lines: number[][][]): string {
  const state = [0, 0, 0, 0];
  return lines
    .map((line) => {
      state[0] = 0;
      return line
        .map((segment) =>
          segment
            .map((field, index) => {
              const delta = field - state[index]!;
              state[index] = field;
              let value = delta < 0 ? (-delta << 1) | 1 : delta << 1;
              let text = "";
              do {
                let digit = value & 31;
                value >>>= 5;
                if (value > 0) digit |= 32;
                text += DIGITS[digit];
              } while (value > 0);
              return text;
            })
            .join(""),
        )
        .join(",");
    })
    .join(";");
}
