// A failed test's turns in the Test Results peek (extension/vscodeFree/transcriptMessage.ts) without VS Code:
// the transcript as markdown with each entry site a link, and one call-stack frame per turn.
import { describe, expect, test } from "bun:test";
import { TestId, type TestTranscript } from "../../server/protocol.ts";
import { transcriptMarkdown, turnFrames } from "../../extension/vscodeFree/transcriptMessage.ts";

const URI = "file:///work/review/workflow.test.ts";
const transcript: TestTranscript = {
  test: TestId.of(URI, ["the lead gives up"]),
  status: "failed",
  durationMs: 12,
  runs: [
    {
      workflow: "review",
      ending: "failed",
      turns: 2,
      durationMs: 9,
      location: { uri: URI, range: { start: { line: 20, character: 4 }, end: { line: 20, character: 4 } } },
      problems: [],
      transcript: [
        "run review · failed · 2 turns · 1 problem",
        "── lead",
        "#1  Review `a.ts`.",
        '    ✓ answered  {"ok":true}',
        "    ← lead[0]  workflow.test.ts:6:48",
        "#2 nudge  (same prompt)",
        "    ✗ failed  the script ran out",
        "    ← lead[1]  helpers.ts:3:1",
        "problem entry-never-reached: lead[2] was never reached",
        "",
      ].join("\n"),
    },
  ],
};

describe("a failed test's turns in the peek", () => {
  test("each turn an entry of the test file met is a frame at that entry, 0-based, labelled with its agent, turn and outcome", () => {
    expect(turnFrames(transcript, URI)).toEqual([{ label: "lead #1 · ✓ answered  ← lead[0]", uri: URI, line: 5, column: 47 }]);
  });

  test("the transcript reads line for line as code, indentation kept, and an entry site in a known file is a link to its line", () => {
    expect(transcriptMarkdown(transcript, URI).split("\n")).toEqual([
      "**The turns of this test** (1 `testWorkflow` run; each entry links to where it was written)",
      "",
      "`run review · failed · 2 turns · 1 problem`  ",
      "`── lead`  ",
      "`` #1  Review `a.ts`. ``  ",
      '`\u00a0\u00a0\u00a0\u00a0✓ answered  {"ok":true}`  ',
      `\`\u00a0\u00a0\u00a0\u00a0← lead[0]\` [workflow.test.ts:6:48](${URI}#L6,48)  `,
      "`#2 nudge  (same prompt)`  ",
      "`\u00a0\u00a0\u00a0\u00a0✗ failed  the script ran out`  ",
      "`\u00a0\u00a0\u00a0\u00a0← lead[1]  helpers.ts:3:1`  ",
      "`problem entry-never-reached: lead[2] was never reached`",
      "",
    ]);
  });

  test("a test that failed before any testWorkflow run says so", () => {
    expect(transcriptMarkdown({ ...transcript, runs: [] }, URI)).toBe(
      "**The turns of this test** (0 `testWorkflow` runs; each entry links to where it was written)\n\nNo `testWorkflow` run: the test failed before one.",
    );
    expect(turnFrames({ ...transcript, runs: [] }, URI)).toEqual([]);
  });
});
