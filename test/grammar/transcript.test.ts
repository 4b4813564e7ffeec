// The transcript grammar (syntaxes/turnlens-transcript.tmLanguage.json) on transcripts that
// renderTranscript made of real runs: committed token snapshots, and the scopes that matter.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunTrace } from "turnlens/trace";
import { renderTranscript } from "../../core/testing/transcript.ts";
import { handoffTrace } from "./fixtures/handoffRun.ts";
import { sampleTrace } from "./fixtures/sampleRun.ts";
import { FIXTURES, matchFileSnapshot, snapshotText, tokenize, tokensOf, TRANSCRIPT_SCOPE, type Token } from "./textmate.ts";

const SAMPLE = join(FIXTURES, "sample.turnlens-transcript");
const scopesOf = (tokens: Token[], text: string, line?: number) => {
  const found = tokensOf(tokens, text, line);
  if (found.length === 0) throw new Error(`no token "${text}"${line ? ` on line ${line}` : ""}`);
  return found[0]!.scopes;
};
const sampleTokens = () => tokenize(readFileSync(SAMPLE, "utf8"), TRANSCRIPT_SCOPE);
const HANDOFF = join(FIXTURES, "handoff.turnlens-transcript");
const handoffTokens = () => tokenize(readFileSync(HANDOFF, "utf8"), TRANSCRIPT_SCOPE);

describe("the transcript grammar", () => {
  // Each fixture run's transcript, committed, and the scopes of each of its tokens.
  const runs: Array<[string, string, () => Promise<RunTrace>]> = [
    ["sample", SAMPLE, sampleTrace],
    ["handoff", HANDOFF, handoffTrace],
  ];
  for (const [name, transcript, traceOfRun] of runs) {
    test(`the ${name} transcript is what renderTranscript makes of the ${name} run today`, async () => {
      matchFileSnapshot(transcript, renderTranscript(await traceOfRun(), { duration: false, sites: true }));
    });

    test(`every token of the ${name} transcript has the scopes in its snapshot`, async () => {
      matchFileSnapshot(`${transcript}.snap`, snapshotText(await tokenize(readFileSync(transcript, "utf8"), TRANSCRIPT_SCOPE)));
    });
  }

  test("an answered or scripted outcome is inserted markup, words and all, and a failed one deleted markup", async () => {
    const tokens = await sampleTokens();
    expect(scopesOf(tokens, "✓ answered")).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "✓ timed out, as scripted")).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "✓ no answer, as scripted")).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "○ stopped")).toContain("markup.changed.ending.turnlens-transcript");
    expect(scopesOf(await handoffTokens(), "✗ failed")).toContain("markup.deleted.outcome.turnlens-transcript");
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
    const text = ["run cut · completed · 2 turns", "── a", "#1  one", '    ✓ answered  {"summary":"xxxxxx…', "    ← a[0]", "#2  two"].join("\n");
    const tokens = await tokenize(text, TRANSCRIPT_SCOPE);
    expect(scopesOf(tokens, "…", 4)).toContain("comment.other.cut.turnlens-transcript");
    expect(scopesOf(tokens, "←", 5)).toEqual([TRANSCRIPT_SCOPE, "meta.entry.turnlens-transcript", "keyword.operator.met-by.turnlens-transcript"]);
    expect(scopesOf(tokens, "two", 6)).toContain("string.unquoted.prompt.turnlens-transcript");
  });

  test("the header counts messages and events as units", async () => {
    const tokens = await handoffTokens();
    expect(scopesOf(tokens, "messages", 1)).toContain("keyword.other.unit.turnlens-transcript");
    expect(scopesOf(tokens, "events", 1)).toContain("keyword.other.unit.turnlens-transcript");
    expect(scopesOf(tokens, "parked", 1)).toContain("markup.changed.ending.turnlens-transcript");
  });

  test("a wake's heading names its sender, and a compaction has its keyword, number and focus", async () => {
    const tokens = await handoffTokens();
    const wake = tokensOf(tokens, "woken by")[0]!;
    expect(wake.scopes).toEqual([TRANSCRIPT_SCOPE, "meta.turn.turnlens-transcript", "keyword.other.woken-by.turnlens-transcript"]);
    expect(scopesOf(tokens, "writer", wake.line)).toContain("entity.name.section.agent.turnlens-transcript");
    expect(scopesOf(tokens, "Is the tone right?", wake.line)).toContain("string.unquoted.prompt.turnlens-transcript");
    const compaction = tokensOf(tokens, "compaction")[0]!;
    expect(compaction.scopes).toContain("keyword.other.compaction.turnlens-transcript");
    expect(scopesOf(tokens, "1", compaction.line)).toContain("constant.numeric.compaction.turnlens-transcript");
    expect(scopesOf(tokens, "Keep the notes.", compaction.line)).toContain("string.unquoted.prompt.turnlens-transcript");
    expect(scopesOf(tokens, "Drop the chatter.", compaction.line + 1)).toContain("string.unquoted.prompt.turnlens-transcript");
    expect(scopesOf(tokens, '"Notes drafted; tone approved."', compaction.line + 2)).toContain("string.quoted.double.json");
  });

  test("a message has its ends, arrow and asks, and its end is inserted, deleted or changed markup", async () => {
    const tokens = await handoffTokens();
    const asking = tokensOf(tokens, "asks")[0]!;
    expect(asking.scopes).toEqual([TRANSCRIPT_SCOPE, "meta.message.turnlens-transcript", "keyword.other.asks.turnlens-transcript"]);
    expect(scopesOf(tokens, "message", asking.line)).toContain("keyword.other.message.turnlens-transcript");
    expect(scopesOf(tokens, "→", asking.line)).toContain("punctuation.separator.arrow.turnlens-transcript");
    expect(scopesOf(tokens, "reviewer", asking.line)).toContain("entity.name.section.agent.turnlens-transcript");
    expect(scopesOf(tokens, "Is the tone right?", asking.line)).toContain("string.unquoted.message.turnlens-transcript");
    expect(scopesOf(tokens, "✓ replied")).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "✓ delivered")).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "✗ failed")).toContain("markup.deleted.outcome.turnlens-transcript");
    const pending = await tokenize("message a → b  hi\n    ○ pending\n", TRANSCRIPT_SCOPE);
    expect(scopesOf(pending, "○ pending", 2)).toContain("markup.changed.outcome.turnlens-transcript");
  });

  test("a participant call names the participant, the route or message, and what its script returned is JSON", async () => {
    const tokens = await handoffTokens();
    const route = tokensOf(tokens, "route")[0]!;
    expect(scopesOf(tokens, "participant", route.line)).toContain("keyword.other.participant.turnlens-transcript");
    expect(scopesOf(tokens, "coordinator", route.line)).toContain("entity.name.section.participant.turnlens-transcript");
    expect(route.scopes).toContain("keyword.other.route.turnlens-transcript");
    expect(scopesOf(tokens, "both", route.line)).toContain("keyword.other.direction.turnlens-transcript");
    expect(scopesOf(tokens, "when to ship", route.line)).toContain("string.unquoted.purpose.turnlens-transcript");
    const from = tokensOf(tokens, "from")[0]!;
    expect(from.scopes).toContain("keyword.other.from.turnlens-transcript");
    expect(scopesOf(tokens, "Notes drafted.", from.line)).toContain("string.unquoted.message.turnlens-transcript");
    const returned = tokensOf(tokens, "→").find((token) => token.scopes.includes("keyword.operator.returned.turnlens-transcript"))!;
    expect(scopesOf(tokens, '"id"', returned.line)).toContain("support.type.property-name.json");
  });

  test("an event names its turn, and reads sent as inserted markup with its id, never sent as deleted", async () => {
    const tokens = await handoffTokens();
    const sent = tokensOf(tokens, "✓ sent")[0]!;
    expect(sent.scopes).toContain("markup.inserted.outcome.turnlens-transcript");
    expect(scopesOf(tokens, "event", sent.line)).toContain("keyword.other.event.turnlens-transcript");
    expect(scopesOf(tokens, "note", sent.line)).toContain("entity.name.type.event.turnlens-transcript");
    expect(scopesOf(tokens, "during", sent.line)).toContain("keyword.other.when.turnlens-transcript");
    expect(scopesOf(tokens, "1", sent.line)).toContain("constant.numeric.turn.turnlens-transcript");
    expect(scopesOf(tokens, "awf.test.1", sent.line)).toContain("constant.other.event-id.turnlens-transcript");
    expect(scopesOf(tokens, "✗ never sent")).toContain("markup.deleted.outcome.turnlens-transcript");
  });
});
