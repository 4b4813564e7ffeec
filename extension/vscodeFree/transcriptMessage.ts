// A failed test's turns where the user looks: the Test Results peek gets the test's transcript as a
// markdown message (each line as the server rendered it, each entry site a link) and the failure
// message a call stack of turns, one frame per turn at the `answer(...)` entry that met it. Pure:
// from the server's transcript text (core/testing/transcript.ts's format); testController.ts applies it.
import type { TestTranscript } from "../../server/protocol.ts";

/** One turn as a stack frame: where the entry that met it was written (0-based line and column). */
export interface TurnFrame {
  label: string;
  uri: string;
  line: number;
  column: number;
}

// A match line ends with two spaces, then `file:line:column` (1-based) of the entry that met the turn.
const SITE = /^(.*\S) {2}([^\s/\\:]+):(\d+):(\d+)$/;

/**
 * The uri of a site the transcript names by its file's name: the test file, or the file a run's
 * `testWorkflow` call is in; a name that is neither is left unlinked (the text does not say where it is).
 */
function siteUri(name: string, testUri: string, transcript: TestTranscript): string | undefined {
  const candidates = [testUri, ...transcript.runs.flatMap((run) => (run.location ? [run.location.uri] : []))];
  return candidates.find((uri) => decodeURIComponent(uri.slice(uri.lastIndexOf("/") + 1)) === name);
}

/** Each turn that an entry met, as a frame at that entry: `lead #2 · ✗ failed  ← lead[1]`. */
export function turnFrames(transcript: TestTranscript, testUri: string): TurnFrame[] {
  const frames: TurnFrame[] = [];
  for (const run of transcript.runs) {
    let agent = "";
    let turn = "";
    let outcome = "";
    for (const line of run.transcript.split("\n")) {
      if (line.startsWith("── ")) agent = line.slice(3);
      else if (line.startsWith("#")) turn = line.slice(0, line.search(/ {2}|$/));
      else if (/^ {4}[✓✗○] /.test(line)) outcome = line.trim().replace(/ {2}.*$/, "");
      const site = SITE.exec(line);
      if (!site || !line.trimStart().startsWith("←")) continue;
      const [, before = "", name = "", lineNumber = "1", column = "1"] = site;
      const uri = siteUri(name, testUri, transcript);
      if (!uri) continue;
      frames.push({ label: `${agent} ${turn} · ${outcome}  ${before.trim()}`, uri, line: Number(lineNumber) - 1, column: Number(column) - 1 });
    }
  }
  return frames;
}

/** Markdown that keeps the transcript's columns: each line as code, its entry site a link after it. */
export function transcriptMarkdown(transcript: TestTranscript, testUri: string): string {
  const out: string[] = [
    `**The turns of this test** (${transcript.runs.length} \`testWorkflow\` run${transcript.runs.length === 1 ? "" : "s"}; each entry links to where it was written)`,
    "",
  ];
  if (transcript.runs.length === 0) out.push("No `testWorkflow` run: the test failed before one.");
  for (const run of transcript.runs) {
    const lines = run.transcript.replace(/\n$/, "").split("\n");
    out.push(
      lines
        .map((line) => {
          const site = SITE.exec(line);
          const uri = site && line.trimStart().startsWith("←") ? siteUri(site[2] ?? "", testUri, transcript) : undefined;
          if (!site || !uri) return code(line);
          const [, before = "", name, lineNumber, column] = site;
          return `${code(before)} [${name}:${lineNumber}:${column}](${uri}#L${lineNumber},${column})`;
        })
        .join("  \n"),
      "",
    );
  }
  return out.join("\n");
}

/** A line as inline code: leading spaces kept (no-break), backticks fenced by a longer run. */
function code(line: string): string {
  const kept = line.replace(/^ +/, (spaces) => "\u00a0".repeat(spaces.length));
  if (kept === "") return "";
  const longest = Math.max(0, ...(kept.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return longest > 0 ? `${fence} ${kept} ${fence}` : `${fence}${kept}${fence}`;
}
