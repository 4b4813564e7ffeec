// The pieces of text the hovers and hints share: a text cut to a length, a code span that
// survives backticks in its text, and a count with its noun; and the plain text of such markdown,
// for a client whose hovers cannot render it.

export function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

export function code(text: string): string {
  const ticks = text.includes("`") ? "``" : "`";
  return `${ticks}${text}${ticks}`;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** A text's first non-blank lines as markdown quote lines, `> …` when there are more. */
export function quoteLines(text: string, lines = 3, limit = 120): string[] {
  const written = text.split("\n").filter((line) => line.trim() !== "");
  const quoted = written.slice(0, lines).map((line) => `> ${cut(line, limit)}`);
  if (written.length > lines) quoted.push("> …");
  return quoted;
}

/**
 * Markdown as a client without markdown shows it: no `**`, no backticks, no `> ` (a quote is
 * indented), a rule is a blank line, a link is its text, a fenced block its lines as written. Only
 * what the hovers write is handled.
 */
export function markdownAsPlainText(markdown: string): string {
  // A fenced block (an inline snapshot's value) is kept as written, its fence lines left out.
  let fence: string | undefined;
  return markdown
    .split("\n")
    .flatMap((line) => {
      const opens = /^(`{3,})$/.exec(line)?.[1];
      if (fence === undefined && opens) return ((fence = opens), []);
      if (fence !== undefined) return line === fence ? ((fence = undefined), []) : [line];
      if (line.trim() === "---") return "";
      const unquoted = line.startsWith("> ") ? `  ${line.slice(2)}` : line === ">" ? "" : line;
      return unquoted
        .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
        .replace(/\*\*([^*]*)\*\*/g, "$1")
        .replace(/``([^`]*)``|`([^`]*)`/g, (_whole, double: string | undefined, single: string | undefined) => double ?? single ?? "")
        .replace(/^\*([^*].*)\*$/, "$1");
    })
    .join("\n")
    .replace(/\n{3,}/g, "\n\n");
}
