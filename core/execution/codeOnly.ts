// Replacing a pattern in a file's code but not in its strings, comments or regular expressions: the
// bundler's own rewrites of source text (`import.meta.url` as the original file's) must leave a test
// named "import.meta.url" as written; `import.meta.glob` is expanded only where it is code
// (importMetaGlob.ts). A light scanner, not a parser; an unbalanced file is left to the plain
// replacement.

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
  // The last character of code before `i` (a string, a template or a regex counts as a value; a comment
  // as nothing): a `/` after one that may end a value divides, after any other it starts a regex.
  let last: string | undefined;
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === "'" || ch === '"') {
      close(i);
      if (!skipString(ch)) return undefined;
      last = ch;
      start = ++i;
    } else if (ch === "`" || (ch === "}" && templates.length > 0 && templates.at(-1) === 0)) {
      close(i);
      if (ch === "}") templates.pop();
      i++;
      const ended = skipTemplate();
      if (ended === undefined) return undefined;
      if (ended === "code") templates.push(0);
      last = ended === "code" ? "{" : "`";
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
      const before = last;
      const word = previousWord(i);
      const isRegex = before === undefined || BEFORE_REGEX.has(before) || (word !== "" && REGEX_KEYWORDS.has(word) && /[\w$]/.test(before));
      if (!isRegex) {
        last = ch;
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
      last = "/";
      start = ++i;
    } else {
      if (templates.length > 0) {
        if (ch === "{") templates[templates.length - 1]!++;
        else if (ch === "}") templates[templates.length - 1]!--;
      }
      if (!/\s/.test(ch)) last = ch;
      i++;
    }
  }
  if (templates.length > 0) return undefined;
  close(text.length);
  return spans;
}

/**
 * Whether an index of `text` is in its code (not in a string, a template's text, a comment or a
 * regular expression); every index is when the scanner cannot read the file.
 */
export function codeAt(text: string): (index: number) => boolean {
  const spans = codeSpans(text);
  if (!spans) return () => true;
  return (index) => {
    // The last span starting at or before the index, by bisection: the spans are in order.
    let low = 0;
    let high = spans.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (spans[middle]![0] <= index) low = middle;
      else high = middle - 1;
    }
    const span = spans[low];
    return span !== undefined && span[0] <= index && index < span[1];
  };
}

/**
 * `text.replace(pattern, replace)` for the matches that start in code; everywhere when the scanner
 * cannot read the file. The pattern sees the whole text, so a lookahead past the code (`import(` then
 * a string) reads what follows. The text is scanned only once a match is found.
 */
export function replaceInCode(text: string, pattern: RegExp, replace: (match: string, ...groups: string[]) => string): string {
  let inCode: ((index: number) => boolean) | undefined;
  return text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const offset = rest.find((value) => typeof value === "number") as number;
    inCode ??= codeAt(text);
    return inCode(offset) ? replace(match, ...(rest.slice(0, rest.indexOf(offset)) as string[])) : match;
  });
}
