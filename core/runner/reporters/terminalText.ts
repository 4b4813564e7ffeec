// What a terminal reporter may print of text a test controls (names, file names, messages, values):
// one table of the characters that never reach the terminal raw and how each is shown instead.
// Escaped, a name cannot set the window title, write the clipboard or forge a `PASS` or `why:` line.

/**
 * Each kind of character a terminal would act on, or that would read as another (docs/runner.md,
 * "What a test controls is shown, never obeyed"). A line feed is kept where a reporter prints a
 * block, each line after its indent, and shown as `\n` in a one-line field; every other is always
 * shown as an escape. A backslash stays as it is, as Vitest prints it.
 */
const ESCAPED: ReadonlyArray<{ kind: string; characters: string; show: (char: string) => string }> = [
  { kind: "line feed", characters: "\\n", show: () => "\\n" },
  { kind: "carriage return: back to the start of the line", characters: "\\r", show: () => "\\r" },
  // ESC starts every ANSI sequence: SGR colors, OSC titles and clipboard writes, cursor moves.
  { kind: "C0 controls but tab, DEL, C1 controls", characters: "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f", show: unicodeEscape },
  {
    kind: "bidi marks, embeddings, overrides, isolates: text read in another order",
    characters: "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069",
    show: unicodeEscape,
  },
  { kind: "line and paragraph separators", characters: "\\u2028\\u2029", show: unicodeEscape },
  // Printed as UTF-8, each would become U+FFFD: two different values would read the same. A
  // surrogate that is half of a pair is a character like any other.
  { kind: "lone surrogates", characters: "\\p{Surrogate}", show: unicodeEscape },
];

function unicodeEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

const ROWS = ESCAPED.map((row) => ({ ...row, matches: new RegExp(`^[${row.characters}]$`, "u") }));
const LINE_FEED = ESCAPED[0]!;
const anyOf = (rows: typeof ESCAPED) => new RegExp(`[${rows.map((row) => row.characters).join("")}]`, "gu");
const ALL = anyOf(ESCAPED);
const ALL_BUT_LINE_FEED = anyOf(ESCAPED.filter((row) => row !== LINE_FEED));
const show = (char: string) => ROWS.find((row) => row.matches.test(char))!.show(char);

/** Text for a one-line field (a test's name, a file's, a `why:`): every escaped character shown, line feeds as `\n`. */
export function oneLineText(text: string): string {
  return text.replace(ALL, show);
}

/** The lines of a block (an error's message), each with the escapes of a one-line field: a reporter prints each after its indent. */
export function blockLines(text: string): string[] {
  return text.split("\n").map((line) => line.replace(ALL_BUT_LINE_FEED, show));
}
