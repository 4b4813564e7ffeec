// The script-language injection grammar (syntaxes/turnlens-script.injection.tmLanguage.json) on
// TypeScript's own grammar: a token snapshot of a test file, and the scopes that matter.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NO_ANSWER_KINDS } from "../../core/testing/noAnswerKinds.ts";
import { FIXTURES, matchFileSnapshot, ROOT, snapshotText, tokenize, tokensOf, TYPESCRIPT_SCOPE, type Token } from "./textmate.ts";

const SAMPLE = join(FIXTURES, "scripts.fixture.ts");
const GRAMMAR = join(ROOT, "syntaxes", "turnlens-script.injection.tmLanguage.json");
/** noAnswer's methods, as the one table of kinds lists them. */
const METHODS = Object.values(NO_ANSWER_KINDS).map((kind) => kind.method);
const sampleTokens = () => tokenize(readFileSync(SAMPLE, "utf8"), TYPESCRIPT_SCOPE);
const scopesOf = (tokens: Token[], text: string, line?: number) => {
  const found = tokensOf(tokens, text, line);
  if (found.length === 0) throw new Error(`no token "${text}"${line ? ` on line ${line}` : ""}`);
  return found[0]!.scopes;
};
/** The 1-based line of the sample that first contains `needle`. */
const lineOf = (needle: string) => {
  const index = readFileSync(SAMPLE, "utf8")
    .split("\n")
    .findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`the sample has no line with ${needle}`);
  return index + 1;
};
/** Whether the injection marked the token itself (the scripts object's meta scope alone does not count). */
const isOurs = (scopes: string[]) => scopes.some((scope) => scope.endsWith(".turnlens") && !scope.startsWith("meta.scripts."));

describe("the script injection grammar", () => {
  test("every token of the sample test file has the scopes in its snapshot", async () => {
    matchFileSnapshot(`${SAMPLE}.snap`, snapshotText(await sampleTokens()));
  });

  test("noAnswer.silent is marked as the silent no-answer, inside TypeScript's own scopes", async () => {
    const tokens = await sampleTokens();
    const line = lineOf('"verifier-1": noAnswer.silent()');
    expect(scopesOf(tokens, "silent", line).at(-1)).toBe("support.function.no-answer.silent.turnlens");
    expect(scopesOf(tokens, "noAnswer", line)).toContain("support.class.no-answer.turnlens");
    expect(scopesOf(tokens, "silent", line)[0]).toBe("source.ts");
  });

  test("every noAnswer method and every answer call is marked", async () => {
    const tokens = await sampleTokens();
    for (const method of METHODS) {
      expect(scopesOf(tokens, method)).toContain(`support.function.no-answer.${method}.turnlens`);
    }
    const calls = tokensOf(tokens, "answer").filter((token) => token.scopes.includes("support.function.answer.turnlens"));
    expect(calls.map((token) => token.line)).toEqual([lineOf("const clean"), lineOf("const lead"), lineOf("const lead"), lineOf("answer((turn) =>")]);
    // The import names it without calling it: left to TypeScript.
    expect(isOurs(scopesOf(tokens, "answer", lineOf("import { answer")))).toBe(false);
  });

  test("the grammar's noAnswer methods and their comment are noAnswerKinds.ts's, in its order", () => {
    const noAnswerRule = JSON.parse(readFileSync(GRAMMAR, "utf8")).repository["no-answer"];
    // The first run of words joined by `|`: the methods the rule's first pattern marks, and its comment's list.
    const alternatives = (text: string) => text.match(/\b((?:\w+\|)+\w+)\b/)?.[1]?.split("|");
    expect(alternatives(noAnswerRule.patterns[0].match)).toEqual(METHODS);
    expect(alternatives(noAnswerRule.comment)).toEqual(METHODS);
  });

  test("a duration after timeout:, stall: or deadline: is marked, and a malformed one is invalid", async () => {
    const tokens = await sampleTokens();
    expect(scopesOf(tokens, "5s")).toEqual(expect.arrayContaining(["string.quoted.double.ts", "constant.numeric.duration.turnlens"]));
    expect(scopesOf(tokens, "1h30m")).toContain("constant.numeric.duration.turnlens");
    expect(scopesOf(tokens, "30m")).toEqual(expect.arrayContaining(["string.quoted.single.ts", "constant.numeric.duration.turnlens"]));
    expect(scopesOf(tokens, "2 s")).toContain("invalid.illegal.duration.turnlens");
    const inline = await tokenize('const options = { label: "5s", deadline: `20m` };', TYPESCRIPT_SCOPE);
    expect(isOurs(scopesOf(inline, "5s"))).toBe(false);
    expect(scopesOf(inline, "20m")).toEqual(expect.arrayContaining(["string.template.ts", "constant.numeric.duration.turnlens"]));
  });

  test("a glob key is marked inside agents: { and decisions: {, and nowhere else", async () => {
    const tokens = await sampleTokens();
    for (const line of [lineOf('"verifier-*": clean'), lineOf('"other-*"'), lineOf('"triage-*"')]) {
      const star = tokensOf(tokens, "*", line)[0];
      expect(star?.scopes).toEqual(expect.arrayContaining(["meta.glob.turnlens", "keyword.operator.glob.turnlens"]));
    }
    expect(tokensOf(tokens, "*", lineOf('"src/*.ts"')).some((token) => isOurs(token.scopes))).toBe(false);
    expect(scopesOf(tokens, "verifier-1", lineOf('"verifier-1": noAnswer.silent()'))).not.toContain("meta.glob.turnlens");
  });

  test("the scripts object keeps TypeScript's scopes for what is inside it", async () => {
    const tokens = await sampleTokens();
    const line = lineOf("lead: [");
    expect(scopesOf(tokens, "lead", line)).toContain("meta.object-literal.key.ts");
    expect(scopesOf(tokens, "agents", lineOf("    agents: {"))).toContain("meta.object-literal.key.ts");
    // After the agents object closes, the next option is TypeScript's again.
    expect(scopesOf(tokens, "stall", lineOf('stall: "2 s"'))).toContain("meta.object-literal.key.ts");
    expect(scopesOf(tokens, "stall", lineOf('stall: "2 s"')).some((scope) => scope.startsWith("meta.scripts"))).toBe(false);
  });

  test("comments and strings that mention the script language stay plain", async () => {
    const tokens = await sampleTokens();
    const comment = lineOf("// noAnswer.silent() in a comment");
    expect(tokens.filter((token) => token.line === comment).some((token) => isOurs(token.scopes))).toBe(false);
    const string = lineOf('answer(\\"not a call\\")');
    expect(tokens.filter((token) => token.line === string && token.text.includes("answer")).some((token) => isOurs(token.scopes))).toBe(false);
  });

  test("a misspelled noAnswer method is invalid, and a member called answer is not a script call", async () => {
    const tokens = await tokenize('const a = noAnswer.slient(); const b = turn.answer("x"); const c = noAnswer.hang();', TYPESCRIPT_SCOPE);
    expect(scopesOf(tokens, "slient")).toContain("invalid.illegal.no-answer.turnlens");
    expect(isOurs(scopesOf(tokens, "answer"))).toBe(false);
    expect(scopesOf(tokens, "hang")).toContain("support.function.no-answer.hang.turnlens");
  });
});
