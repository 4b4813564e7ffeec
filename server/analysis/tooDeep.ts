// What the static pass does with code nested too deep for a recursive walk (2,000 nested `[`, a
// 5,000-term `+` chain, 2,000 chained `.map()`): it blanks that code out, analyses the rest, and
// says where with a "too deep to analyse" notice, rather than overflowing the server's stack.

import ts from "./typescript.ts";
import type { StaticProblem } from "./model.ts";
import { rangeBetween } from "./ranges.ts";
import { DEPTH_LIMIT } from "../limits.ts";

export const TOO_DEEP_MESSAGE = `too deep to analyse: this code is nested more than ${DEPTH_LIMIT} levels deep, so Turnlens's static checks, hovers and hints skip it (the tests still run)`;
export const FILE_TOO_DEEP_MESSAGE = `too deep to analyse: TypeScript's parser cannot read this file (it is nested more than ${DEPTH_LIMIT} levels deep), so Turnlens checks nothing in it and finds no test to run`;

/** Thrown by the walk on reaching a node deeper than DEPTH_LIMIT. */
export class TooDeepError extends Error {
  constructor() {
    super(`nested more than ${DEPTH_LIMIT} levels deep`);
  }
}

/** Whether an error is what the walk or the parser throw when the code is too deep for them. */
export function isTooDeep(error: unknown): boolean {
  return error instanceof TooDeepError || (error instanceof RangeError && /call stack/i.test(error.message));
}

/** The text with every too-deep region blanked (same length, line breaks kept), and those regions. */
export interface FlattenedText {
  text: string;
  /** Offsets [start, end) of the code blanked out, in order. */
  regions: Array<[number, number]>;
}

/**
 * Blanks what is nested past DEPTH_LIMIT so the parser and the walk both hold: first brackets,
 * when the parser itself overflows, then syntax-tree nodes. Undefined when even that cannot be parsed.
 */
export function flattenTooDeep(text: string, parse: (text: string) => ts.SourceFile): FlattenedText | undefined {
  const regions: Array<[number, number]> = [];
  let current = text;
  let sourceFile = tryParse(parse, current);
  if (!sourceFile) {
    const bracketRegions = deepBracketRegions(current);
    current = blank(current, bracketRegions);
    regions.push(...bracketRegions);
    sourceFile = tryParse(parse, current);
    if (!sourceFile) return undefined;
  }
  const nodeRegions = deepNodeRegions(sourceFile);
  current = blank(current, nodeRegions);
  regions.push(...nodeRegions);
  regions.sort((left, right) => left[0] - right[0]);
  return { text: current, regions };
}

/** One information notice per top-level statement holding blanked code, over what was blanked. */
export function tooDeepNotices(sourceFile: ts.SourceFile, regions: Array<[number, number]>): StaticProblem[] {
  const notices: StaticProblem[] = [];
  let statementIndex = 0;
  let open: { statementEnd: number; start: number; end: number } | undefined;
  const flush = () => {
    if (open) notices.push({ code: "too-deep", message: TOO_DEEP_MESSAGE, range: rangeBetween(sourceFile, open.start, open.end) });
    open = undefined;
  };
  for (const [start, end] of regions) {
    if (open && start < open.statementEnd) {
      open.end = Math.max(open.end, end);
      continue;
    }
    flush();
    const statements = sourceFile.statements;
    while (statementIndex < statements.length && statements[statementIndex]!.end <= start) statementIndex++;
    open = { statementEnd: statements[statementIndex]?.end ?? sourceFile.end, start, end };
  }
  flush();
  return notices;
}

/** The notice for a file the parser cannot read at all: on its first line. */
export function fileTooDeepNotice(text: string): StaticProblem {
  const firstLine = /^[^\r\n]*/.exec(text)![0];
  return { code: "too-deep", message: FILE_TOO_DEEP_MESSAGE, range: { start: { line: 0, character: 0 }, end: { line: 0, character: firstLine.length } } };
}

function tryParse(parse: (text: string) => ts.SourceFile, text: string): ts.SourceFile | undefined {
  try {
    return parse(text);
  } catch (error) {
    if (isTooDeep(error)) return undefined;
    throw error;
  }
}

/**
 * The code the walk cannot reach: each node at DEPTH_LIMIT (counted as the walk counts: the file
 * is 0, its statements 1) that has children, widened to its nearest expression or statement so
 * that `0` can stand in its place; found with an explicit stack. Types are skipped, as the walk
 * skips them.
 */
function deepNodeRegions(sourceFile: ts.SourceFile): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  // Each frame: a node, its depth, and the nearest expression or statement at or above it.
  const frames: Array<{ node: ts.Node; depth: number; replaceable: ts.Node | undefined }> = [{ node: sourceFile, depth: 0, replaceable: undefined }];
  while (frames.length > 0) {
    const { node, depth, replaceable } = frames.pop()!;
    const children: ts.Node[] = [];
    ts.forEachChild(node, (child) => {
      if (!ts.isTypeNode(child)) children.push(child);
    });
    if (depth === DEPTH_LIMIT) {
      const region = ts.isExpression(node) || ts.isStatement(node) ? node : (replaceable ?? node);
      if (children.length > 0) found.push([region.getStart(sourceFile), region.end]);
      continue;
    }
    for (const child of children) {
      frames.push({ node: child, depth: depth + 1, replaceable: ts.isExpression(child) || ts.isStatement(child) ? child : replaceable });
    }
  }
  // Widening can make one region hold others; keep the outermost.
  found.sort((left, right) => left[0] - right[0] || right[1] - left[1]);
  const regions: Array<[number, number]> = [];
  for (const region of found) {
    const last = regions[regions.length - 1];
    if (last && region[0] < last[1]) last[1] = Math.max(last[1], region[1]);
    else regions.push(region);
  }
  return regions;
}

/** The token kinds the bracket scan tells apart; made at the first scan, so loading this module does not load
 * the TypeScript compiler (typescript.ts loads it on first use). */
let tokenKinds: { openers: Set<ts.SyntaxKind>; closers: Set<ts.SyntaxKind>; endsAnOperand: Set<ts.SyntaxKind> } | undefined;
function kinds() {
  return (tokenKinds ??= {
    openers: new Set([ts.SyntaxKind.OpenParenToken, ts.SyntaxKind.OpenBracketToken, ts.SyntaxKind.OpenBraceToken]),
    closers: new Set([ts.SyntaxKind.CloseParenToken, ts.SyntaxKind.CloseBracketToken, ts.SyntaxKind.CloseBraceToken]),
    /** After these a `/` divides; after anything else it starts a regular expression. */
    endsAnOperand: new Set([
      ts.SyntaxKind.Identifier,
      ts.SyntaxKind.PrivateIdentifier,
      ts.SyntaxKind.NumericLiteral,
      ts.SyntaxKind.BigIntLiteral,
      ts.SyntaxKind.StringLiteral,
      ts.SyntaxKind.RegularExpressionLiteral,
      ts.SyntaxKind.NoSubstitutionTemplateLiteral,
      ts.SyntaxKind.TemplateTail,
      ts.SyntaxKind.CloseParenToken,
      ts.SyntaxKind.CloseBracketToken,
      ts.SyntaxKind.CloseBraceToken,
      ts.SyntaxKind.ThisKeyword,
      ts.SyntaxKind.SuperKeyword,
      ts.SyntaxKind.TrueKeyword,
      ts.SyntaxKind.FalseKeyword,
      ts.SyntaxKind.NullKeyword,
      ts.SyntaxKind.PlusPlusToken,
      ts.SyntaxKind.MinusMinusToken,
    ]),
  });
}

/**
 * The bracketed regions opened past DEPTH_LIMIT, from their opening bracket to its match (or the
 * end of the text), read with TypeScript's scanner so strings, comments, templates and regular
 * expressions hold no brackets. Used only when the parser overflowed, so it needs no parse.
 */
function deepBracketRegions(text: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  const { openers: OPENERS, closers: CLOSERS, endsAnOperand: ENDS_AN_OPERAND } = kinds();
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  // What each open level is: a bracket or a template's `${`.
  const open: Array<"bracket" | "template"> = [];
  let blankStart = -1;
  let blankDepth = 0;
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !ENDS_AN_OPERAND.has(previous)) {
      kind = scanner.reScanSlashToken();
    } else if (kind === ts.SyntaxKind.CloseBraceToken && open[open.length - 1] === "template") {
      kind = scanner.reScanTemplateToken(false);
    }
    if (OPENERS.has(kind)) {
      open.push("bracket");
      if (open.length > DEPTH_LIMIT && blankStart < 0) {
        blankStart = scanner.getTokenStart();
        blankDepth = open.length;
      }
    } else if (kind === ts.SyntaxKind.TemplateHead) {
      open.push("template");
    } else if (CLOSERS.has(kind) || kind === ts.SyntaxKind.TemplateTail) {
      if (blankStart >= 0 && open.length === blankDepth) {
        regions.push([blankStart, scanner.getTokenEnd()]);
        blankStart = -1;
      }
      open.pop();
    }
    previous = kind;
  }
  if (blankStart >= 0) regions.push([blankStart, text.length]);
  return regions;
}

/**
 * The text with each region replaced by `0` and spaces, line breaks kept, so offsets, lines and
 * columns of the rest stay where they were (and an expression's place still holds an expression).
 */
function blank(text: string, regions: Array<[number, number]>): string {
  if (regions.length === 0) return text;
  let result = "";
  let from = 0;
  for (const [start, end] of regions) {
    result += `${text.slice(from, start)}0${text.slice(start + 1, end).replace(/[^\r\n\u2028\u2029]/g, " ")}`;
    from = end;
  }
  return result + text.slice(from);
}
