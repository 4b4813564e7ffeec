// Replacing a pattern in a file's code but not in its strings, comments or regular expressions: the
// bundler's own rewrites of source text (`import.meta.url` as the original file's) must leave a test
// named "import.meta.url" as written. A light scanner, not a parser; an unbalanced file is left to
// the plain replacement.

/** Characters after which `/` starts a regular expression rather than dividing. */
const BEFORE_REGEX = new Set([..."(,=:[!&|?{};+-*%<>~^"]);
const REGEX_KEYWORDS = new Set(["return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await"]);

/** The [start, end) spans of `text` that are code: outside strings (but inside `${…}`), comments and regexes. */
export function codeSpans(text: string): Array<[number, number]> | undefined {
  const spans: Array<[number, number]> = [];
  // Each open template literal's depth of `{` inside its current `${`.
  const templates: number[] = [];
  let start = 0;
  let i = 0;
  const close = (at: number) => {
    if (at > start) spans.push([start, at]);
  };
  const skipString = (quote: string): boolean => {
    for (i++; i < text.length; i++) {
      const ch = text[i];
      if (ch === "\\") i++;
      else if (ch === quote) return true;
      else if (ch === "\n") return false;
    }
    return false;
  };
  // A template's text from i (just after "`" or "}"): ends at its closing "`" (true) or at "${" (false, in code again).
  const skipTemplate = (): "end" | "code" | undefined => {
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === "\\") i++;
      else if (ch === "`") return "end";
      else if (ch === "$" && text[i + 1] === "{") {
        i++;
        return "code";
      }
    }
    return undefined;
  };
  const previousWord = (at: number): string => {
    let end = at;
    while (end > 0 && /\s/.test(text[end - 1]!)) end--;
    let begin = end;
    while (begin > 0 && /[\w$]/.test(text[begin - 1]!)) begin--;
    return text.slice(begin, end);
  };
  const previousChar = (at: number): string | undefined => {
    let j = at - 1;
    while (j >= 0 && /\s/.test(text[j]!)) j--;
    return j < 0 ? undefined : text[j];
  };
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === "'" || ch === '"') {
      close(i);
      if (!skipString(ch)) return undefined;
      start = ++i;
    } else if (ch === "`" || (ch === "}" && templates.length > 0 && templates.at(-1) === 0)) {
      close(i);
      if (ch === "}") templates.pop();
      i++;
      const ended = skipTemplate();
      if (ended === undefined) return undefined;
      if (ended === "code") templates.push(0);
      start = ++i;
    } else if (ch === "/" && next === "/") {
      close(i);
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
      start = i;
    } else if (ch === "/" && next === "*") {
      close(i);
      const end = text.indexOf("*/", i + 2);
      if (end < 0) return undefined;
      start = i = end + 2;
    } else if (ch === "/") {
      const before = previousChar(i);
      const word = previousWord(i);
      const isRegex = before === undefined || BEFORE_REGEX.has(before) || (word !== "" && REGEX_KEYWORDS.has(word) && /[\w$]/.test(before));
      if (!isRegex) {
        i++;
        continue;
      }
      close(i);
      let inClass = false;
      for (i++; i < text.length; i++) {
        const c = text[i];
        if (c === "\\") i++;
        else if (c === "[") inClass = true;
        else if (c === "]") inClass = false;
        else if (c === "/" && !inClass) break;
        else if (c === "\n") return undefined;
      }
      start = ++i;
    } else {
      if (templates.length > 0) {
        if (ch === "{") templates[templates.length - 1]!++;
        else if (ch === "}") templates[templates.length - 1]!--;
      }
      i++;
    }
  }
  if (templates.length > 0) return undefined;
  close(text.length);
  return spans;
}

/**
 * `text.replace(pattern, replace)` for the matches that start in code; everywhere when the scanner
 * cannot read the file. The pattern sees the whole text, so a lookahead past the code (`import(` then
 * a string) reads what follows.
 */
export function replaceInCode(text: string, pattern: RegExp, replace: (match: string, ...groups: string[]) => string): string {
  const spans = codeSpans(text);
  if (!spans) return text.replace(pattern, replace);
  // Matches come in order of their offset, so one walk over the spans serves them all.
  let span = 0;
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const offset = rest.find((value) => typeof value === "number") as number;
    while (span < spans.length && spans[span]![1] <= offset) span++;
    const inCode = span < spans.length && spans[span]![0] <= offset;
    return inCode ? replace(match, ...(rest.slice(0, rest.indexOf(offset)) as string[])) : match;
  });
}
