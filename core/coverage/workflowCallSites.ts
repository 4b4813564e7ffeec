// The calls in a workflow's source that ask the tests' fakes something: `agent.run(...)` (a turn),
// `wf.agents.open(...)` / `caller` / `forkCaller` / `agent.fork(...)` (an agent opened), `wf.decide(...)` (a decision). A plain scan of the text
// with comments and strings blanked, not a type checker: the CLI ships without TypeScript.

/** What a call asks. */
export type CallSiteKind = "turn" | "open" | "decision";

/** One call in the workflow's source, 1-based line and column of the called name (`run`, `open`, `decide`). */
export interface WorkflowCallSite {
  kind: CallSiteKind;
  line: number;
  column: number;
  /** The call as written up to its `(`, such as `verifier.run` or `wf.agents.open`. */
  callee: string;
}

const CALLS: Array<{ kind: CallSiteKind; pattern: RegExp }> = [
  { kind: "open", pattern: /\bagents\s*\.\s*(open|caller|forkCaller)\s*\(/g },
  // An agent's fork opens another agent (`planner.fork({ key: "skeptic" })`).
  { kind: "open", pattern: /\.\s*(fork)\s*\(/g },
  { kind: "turn", pattern: /\.\s*(run)\s*\(/g },
  { kind: "decision", pattern: /\.\s*(decide)\s*\(/g },
];

/** Every such call in `source`, in the order written. */
export function workflowCallSites(source: string): WorkflowCallSite[] {
  const code = blankCommentsAndStrings(source);
  const lineStarts = [0];
  for (let index = 0; index < code.length; index++) if (code[index] === "\n") lineStarts.push(index + 1);
  const positionOf = (offset: number) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((lineStarts[middle] ?? 0) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };
  const sites: Array<WorkflowCallSite & { offset: number }> = [];
  for (const { kind, pattern } of CALLS) {
    for (const match of code.matchAll(pattern)) {
      const name = match[1] ?? "";
      const offset = (match.index ?? 0) + match[0].indexOf(name);
      const callee = `${receiverBefore(code, offset)}${name}`;
      // `wf.run` is not an agent's turn: only a handle's `run` is.
      if (kind === "turn" && callee === "wf.run") continue;
      sites.push({ kind, ...positionOf(offset), callee, offset });
    }
  }
  return sites.sort((left, right) => left.offset - right.offset).map(({ offset: _offset, ...site }) => site);
}

/** The dotted names before `offset` (`wf.agents.`), or `(…).` after a parenthesis. */
function receiverBefore(code: string, offset: number): string {
  const parts: string[] = [];
  let at = offset;
  const skipSpace = () => {
    while (at > 0 && /\s/.test(code[at - 1] ?? "")) at--;
  };
  for (;;) {
    skipSpace();
    if (code[at - 1] !== ".") break;
    at--;
    skipSpace();
    const end = at;
    while (at > 0 && /[\w$]/.test(code[at - 1] ?? "")) at--;
    if (at === end) {
      if (code[at - 1] === ")") parts.unshift("(…)");
      break;
    }
    parts.unshift(code.slice(at, end));
  }
  return parts.length > 0 ? `${parts.join(".")}.` : "";
}

/**
 * The source with every comment and string literal's content replaced by spaces (line breaks
 * kept, so offsets and lines stay true); a template literal's `${...}` stays code.
 */
export function blankCommentsAndStrings(source: string): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let index = from; index < to; index++) if (out[index] !== "\n") out[index] = " ";
  };
  // Each open template literal's brace depth at its `${`.
  const templates: number[] = [];
  let depth = 0;
  let index = 0;
  const length = source.length;
  const skipTemplateText = (start: number): number => {
    // From just inside a template's text: blank until `${` (returns past it) or the closing backtick.
    let at = start;
    while (at < length) {
      const char = source[at];
      if (char === "\\") {
        at += 2;
        continue;
      }
      if (char === "`") {
        blank(start, at);
        return at + 1;
      }
      if (char === "$" && source[at + 1] === "{") {
        blank(start, at);
        templates.push(depth);
        depth++;
        return at + 2;
      }
      at++;
    }
    blank(start, length);
    return length;
  };
  while (index < length) {
    const char = source[index];
    const next = source[index + 1];
    if (char === "/" && next === "/") {
      const end = source.indexOf("\n", index);
      const stop = end < 0 ? length : end;
      blank(index, stop);
      index = stop;
    } else if (char === "/" && next === "*") {
      const end = source.indexOf("*/", index + 2);
      const stop = end < 0 ? length : end + 2;
      blank(index, stop);
      index = stop;
    } else if (char === '"' || char === "'") {
      let at = index + 1;
      while (at < length && source[at] !== char && source[at] !== "\n") at += source[at] === "\\" ? 2 : 1;
      blank(index + 1, Math.min(at, length));
      index = at + 1;
    } else if (char === "`") {
      index = skipTemplateText(index + 1);
    } else if (char === "{") {
      depth++;
      index++;
    } else if (char === "}") {
      depth--;
      index++;
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        templates.pop();
        index = skipTemplateText(index);
      }
    } else {
      index++;
    }
  }
  return out.join("");
}
