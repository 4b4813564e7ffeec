// Every problem code's descriptor (core/testing/problemCodes.ts) against what is written about it:
// docs/language-server.md's Diagnostics table has one row per code, its "where" the descriptor's
// docs line word for word, its "from" what the descriptor says the static pass finds.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { FAILURE_CODES } from "../../core/execution/failureLocation.ts";
import { preferredFixTitle } from "../../core/testing/problemFixes.ts";
import { PROBLEM_CODES, type ProblemCodeDescriptor } from "../../core/testing/problemCodes.ts";
import type { ProblemCode } from "../../core/testing/trace.ts";

const DOCS = fileURLToPath(new URL("../../docs/language-server.md", import.meta.url));
/** The codes the server makes itself, not from a test's problem. */
const SERVER_CODES = ["too-deep", ...Object.keys(FAILURE_CODES), "answer-unchecked"];
const CODES = Object.keys(PROBLEM_CODES) as ProblemCode[];

/** The Diagnostics table's rows: the codes its first cell names, its "where" and "from" cells. */
function diagnosticsTable(markdown: string): Array<{ codes: string[]; where: string; from: string }> {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("Diagnostics\n"));
  if (!section) throw new Error("docs/language-server.md has no Diagnostics section");
  const rows = section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.slice(2, -2).split(" | "));
  return rows.map((cells) => {
    if (cells.length !== 3) throw new Error(`a Diagnostics row of ${cells.length} cells: ${cells.join(" | ")}`);
    const [code, where, from] = cells as [string, string, string];
    return { codes: [...code.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]!), where, from };
  });
}

const fromOf = (descriptor: ProblemCodeDescriptor) => (descriptor.static ? "static and run" : "run");

describe("the problem codes' descriptors", () => {
  const rows = diagnosticsTable(readFileSync(DOCS, "utf8"));

  test("every problem code has one row in the language server's Diagnostics table, its where and from as its descriptor says", () => {
    const mismatched = CODES.flatMap((code) => {
      const named = rows.filter((row) => row.codes.includes(code));
      const descriptor: ProblemCodeDescriptor = PROBLEM_CODES[code];
      if (named.length !== 1) return [`${code}: ${named.length} rows`];
      const row = named[0]!;
      return [
        ...(row.where === descriptor.docs ? [] : [`${code}: the docs say "${row.where}", its descriptor "${descriptor.docs}"`]),
        ...(row.from === fromOf(descriptor) ? [] : [`${code}: from "${row.from}", its descriptor "${fromOf(descriptor)}"`]),
      ];
    });
    expect(mismatched).toEqual([]);
  });

  test("the Diagnostics table names no code that is neither a problem code nor one the server makes", () => {
    const unknown = rows.flatMap((row) => row.codes).filter((code) => !(code in PROBLEM_CODES) && !SERVER_CODES.includes(code));
    expect(unknown).toEqual([]);
  });

  test("a code whose descriptor offers no fix gets no fix in the agent reporter's words, even with everything a fix could use", () => {
    const everything = {
      message: "m",
      option: "agnets",
      suggestion: "agents",
      key: "writer",
      agent: "writer",
      turn: 2,
      sites: [{ file: "/t.test.ts", line: 1, column: 1 }],
      expectedSchema: { type: "string" },
      decision: "release-1",
    };
    const nameOf = () => ({ name: "NOTE", module: "./workflows" });
    const decisionQuestions = { ship: { kind: "yes-no", instructions: "Ship it?" } } as const;
    const offered = CODES.filter((code) => preferredFixTitle({ code, ...everything }, { nameOf, decisionQuestions }) !== undefined);
    expect(offered).toEqual(CODES.filter((code) => PROBLEM_CODES[code].fix !== "none" && PROBLEM_CODES[code].fix !== "fill"));
  });
});
