// The grammar tests' shared harness: loads our two grammars (and TypeScript's, from tm-grammars in
// node_modules) into vscode-textmate on vscode-oniguruma, tokenizes text line by line, and checks
// committed token snapshots, showing a diff on a mismatch; UPDATE_SNAPSHOTS=1 rewrites them.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const requireHere = createRequire(import.meta.url);
const oniguruma = requireHere("vscode-oniguruma") as typeof import("vscode-oniguruma");
const textmate = requireHere("vscode-textmate") as typeof import("vscode-textmate");

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, "..", "..");
export const FIXTURES = join(HERE, "fixtures");

export const TRANSCRIPT_SCOPE = "source.turnlens-transcript";
export const INJECTION_SCOPE = "turnlens.script.injection";
export const TYPESCRIPT_SCOPE = "source.ts";

const GRAMMAR_FILES: Record<string, string> = {
  [TRANSCRIPT_SCOPE]: join(ROOT, "syntaxes", "turnlens-transcript.tmLanguage.json"),
  [INJECTION_SCOPE]: join(ROOT, "syntaxes", "turnlens-script.injection.tmLanguage.json"),
  // TypeScript's grammar as VS Code ships it, from the tm-grammars package (not copied here).
  [TYPESCRIPT_SCOPE]: requireHere.resolve("tm-grammars/grammars/typescript.json"),
};

export interface Token {
  line: number;
  start: number;
  end: number;
  text: string;
  scopes: string[];
}

let registry: Promise<import("vscode-textmate").Registry> | undefined;

function loadRegistry() {
  registry ??= (async () => {
    const wasm = readFileSync(join(dirname(requireHere.resolve("vscode-oniguruma")), "onig.wasm"));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
    return new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName: string) => {
        const file = GRAMMAR_FILES[scopeName];
        if (!file) return null;
        return textmate.parseRawGrammar(readFileSync(file, "utf8"), file);
      },
      // What the extension's `injectTo: ["source.ts"]` will do in VS Code.
      getInjections: (scopeName: string) => (scopeName === TYPESCRIPT_SCOPE ? [INJECTION_SCOPE] : undefined),
    });
  })();
  return registry;
}

/** Every token of `text` under the grammar `scopeName`, line by line, carrying state across lines. */
export async function tokenize(text: string, scopeName: string): Promise<Token[]> {
  const grammar = await (await loadRegistry()).loadGrammar(scopeName);
  if (!grammar) throw new Error(`no grammar for ${scopeName}`);
  const tokens: Token[] = [];
  let state = textmate.INITIAL;
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  lines.forEach((line, index) => {
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens) {
      const end = Math.min(token.endIndex, line.length);
      if (end <= token.startIndex) continue;
      tokens.push({ line: index + 1, start: token.startIndex, end, text: line.slice(token.startIndex, end), scopes: token.scopes });
    }
    state = result.ruleStack;
  });
  return tokens;
}

/** The tokens whose text is `text` on line `line` (1-based), or on any line when it is omitted. */
export function tokensOf(tokens: Token[], text: string, line?: number): Token[] {
  return tokens.filter((token) => token.text === text && (line === undefined || token.line === line));
}

/** One line per token: `line:start-end "text" scope scope …` (line 1-based, columns 0-based, end exclusive). */
export function snapshotText(tokens: Token[]): string {
  const header = '# line:start-end "text" scopes, outermost first (line 1-based; columns 0-based, end exclusive)';
  return `${[header, ...tokens.map((t) => `${t.line}:${t.start}-${t.end} ${JSON.stringify(t.text)} ${t.scopes.join(" ")}`)].join("\n")}\n`;
}

/**
 * Compares `actual` with the committed file: throws with a diff when they differ, unless
 * UPDATE_SNAPSHOTS=1, which writes `actual` instead.
 */
export function matchFileSnapshot(file: string, actual: string): void {
  const update = process.env.UPDATE_SNAPSHOTS === "1";
  const name = relative(ROOT, file);
  if (update) {
    if (!existsSync(file) || readFileSync(file, "utf8") !== actual) writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`no snapshot ${name}: run with UPDATE_SNAPSHOTS=1 to write it`);
  const expected = readFileSync(file, "utf8");
  if (expected === actual) return;
  throw new Error(`${name} differs (- committed, + now); run with UPDATE_SNAPSHOTS=1 if the change is meant:\n${diff(expected, actual)}`);
}

/** A line diff of the changed hunks, two lines of context around each. */
export function diff(expected: string, actual: string, context = 2): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  // Longest common subsequence table, from the end, so the walk below reads it forward.
  const lcs: Uint32Array[] = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Array<{ mark: " " | "-" | "+"; text: string; line: number }> = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) ops.push({ mark: " ", text: a[i++]!, line: j++ + 1 });
    else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ mark: "-", text: a[i++]!, line: j + 1 });
    else ops.push({ mark: "+", text: b[j++]!, line: j });
  }
  const shown = new Set<number>();
  ops.forEach((op, index) => {
    if (op.mark === " ") return;
    for (let k = Math.max(0, index - context); k <= Math.min(ops.length - 1, index + context); k++) shown.add(k);
  });
  const out: string[] = [];
  let last = -1;
  for (const index of [...shown].sort((x, y) => x - y)) {
    if (index !== last + 1) out.push(`@@ near line ${ops[index]!.line} @@`);
    out.push(`${ops[index]!.mark} ${ops[index]!.text}`);
    last = index;
  }
  return out.join("\n");
}
