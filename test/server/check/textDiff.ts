// A line diff of two annotated texts, for a failing check: `-` the annotations written, `+` what the
// server gave, with two lines of context around each change.

/** The lines of `expected` and `actual` as a diff; empty when they are the same. */
export function textDiff(expected: string, actual: string): string {
  const left = expected.split("\n");
  const right = actual.split("\n");
  // Longest common subsequence, from the end, so the walk below goes forward.
  const common: number[][] = Array.from({ length: left.length + 1 }, () => new Array<number>(right.length + 1).fill(0));
  for (let i = left.length - 1; i >= 0; i--) {
    const row = common[i] ?? [];
    const below = common[i + 1] ?? [];
    for (let j = right.length - 1; j >= 0; j--) row[j] = left[i] === right[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
  }
  const lines: Array<{ mark: " " | "-" | "+"; text: string }> = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i < left.length && j < right.length && left[i] === right[j]) {
      lines.push({ mark: " ", text: left[i] ?? "" });
      i++;
      j++;
    } else if (i < left.length && (j >= right.length || (common[i + 1]?.[j] ?? 0) >= (common[i]?.[j + 1] ?? 0))) lines.push({ mark: "-", text: left[i++] ?? "" });
    else lines.push({ mark: "+", text: right[j++] ?? "" });
  }
  const changed = lines.map((line, index) => (line.mark === " " ? -1 : index)).filter((index) => index >= 0);
  if (changed.length === 0) return "";
  const shown = new Set<number>();
  for (const index of changed) for (let near = index - 2; near <= index + 2; near++) if (near >= 0 && near < lines.length) shown.add(near);
  const out: string[] = [];
  let last = -1;
  for (const index of [...shown].sort((a, b) => a - b)) {
    if (last >= 0 && index > last + 1) out.push("  …");
    const line = lines[index];
    if (line) out.push(`${line.mark} ${line.text}`);
    last = index;
  }
  return out.join("\n");
}
