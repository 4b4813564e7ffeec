// The transcript grammar (syntaxes/turnlens-transcript.tmLanguage.json) on a transcript that
// renderTranscript made of a real run: a committed token snapshot, and the scopes that matter.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderTranscript } from "../../core/testing/transcript.ts";
import { sampleTrace } from "./fixtures/sampleRun.ts";
import { FIXTURES, matchFileSnapshot, snapshotText, tokenize, tokensOf, TRANSCRIPT_SCOPE, type Token } from "./textmate.ts";

const SAMPLE = join(FIXTURES, "sample.turnlens-transcript");
const scopesOf = (tokens: Token[], text: string, line?: number) => {
  const found = tokensOf(tokens, text, line);
  if (found.length === 0) throw new Error(`no token "${text}"${line ? ` on line ${line}` : ""}`);
  return found[0]!.scopes;
};
const sampleTokens = () => tokenize(readFileSync(SAMPLE, "utf8"), TRANSCRIPT_SCOPE);

describe("the transcript grammar", () => {
  test("the sample transcript is what renderTranscript makes of the sample run today", async () => {
    matchFileSnapshot(SAMPLE, renderTranscript(await sampleTrace(), { duration: false, sites: true }));
  });

  test("every token of the sample transcript has the scopes in its snapshot", async () => {
    matchFileSnapshot(`${SAMPLE}.snap`, snapshotText(await sampleTokens()));
  });

  test("an answered outcome is inserted markup and a failed one deleted markup", async () => {
    const tokens = await sampleTokens();
    expect(scopesOf(tokens, "✓ answered")).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "✗ timed-out")).toContain("markup.deleted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "✗ unanswered")).toContain("markup.deleted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "○ stopped")).toContain("markup.changed.ending.turnlens-transcript");
  });

  test("the header, agent headings, turn numbers, nudges, labels and stages each have their scope", async () => {
    const tokens = await sampleTokens();
    expect(scopesOf(tokens, "run", 1)).toContain("keyword.other.run.turnlens-transcript");
    expect(scopesOf(tokens, "sample-review", 1)).toContain("entity.name.function.workflow.turnlens-transcript");
    expect(scopesOf(tokens, "writer")).toContain("entity.name.section.agent.turnlens-transcript");
    expect(scopesOf(tokens, "2")).toContain("constant.numeric.turn.turnlens-transcript");
    expect(scopesOf(tokens, "nudge")).toContain("keyword.other.nudge.turnlens-transcript");
    expect(scopesOf(tokens, "security")).toContain("entity.name.tag.label.turnlens-transcript");
    expect(scopesOf(tokens, "review")).toContain("entity.name.section.stage.turnlens-transcript");
    expect(scopesOf(tokens, "Now a one-line summary.")).toContain("string.unquoted.prompt.turnlens-transcript");
  });

  test("an answer is read as JSON, the glob in an entry key is marked, and a problem's code is invalid", async () => {
    const tokens = await sampleTokens();
    expect(scopesOf(tokens, '"findings"')).toContain("support.type.property-name.json");
    expect(scopesOf(tokens, "true")).toContain("constant.language.json");
    expect(scopesOf(tokens, "\\n")).toContain("constant.character.escape.json");
    expect(scopesOf(tokens, "*")).toContain("keyword.operator.glob.turnlens-transcript");
    expect(scopesOf(tokens, "entry-never-reached")).toContain("invalid.illegal.problem.turnlens-transcript");
  });

  test("a cut answer stays on its line: the next line is read afresh", async () => {
    const text = ['run cut · completed · 2 turns', "── a", "#1  one", '    ✓ answered  {"summary":"xxxxxx…', "    ← a[0]", "#2  two"].join("\n");
    const tokens = await tokenize(text, TRANSCRIPT_SCOPE);
    expect(scopesOf(tokens, "…", 4)).toContain("comment.other.cut.turnlens-transcript");
    expect(scopesOf(tokens, "←", 5)).toEqual([TRANSCRIPT_SCOPE, "meta.entry.turnlens-transcript", "keyword.operator.met-by.turnlens-transcript"]);
    expect(scopesOf(tokens, "two", 6)).toContain("string.unquoted.prompt.turnlens-transcript");
  });
});
