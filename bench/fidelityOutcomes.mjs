// The outcomes of one test file under real Vitest and under `turnlens test`, read from their json
// reports, matched test by test (describe path > test name), and the table bench/vitestFidelity.mjs prints.

/** The key a test is matched by across the runners: its describe names, then its own, joined by " > ". */
export function testKey(path) {
  return path.join(" > ");
}

/**
 * Outcomes by key, a repeated key numbered " (2)", " (3)"… in the order the report lists them, as
 * both runners list a file's tests in the order they were declared.
 */
function keyed(entries) {
  const outcomes = new Map();
  const seen = new Map();
  for (const { path, status } of entries) {
    const base = testKey(path);
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    outcomes.set(count === 1 ? base : `${base} (${count})`, status);
  }
  return outcomes;
}

/** Vitest's statuses ("passed", "failed", "pending", "skipped", "todo") in the four this bench counts. */
function vitestStatus(status) {
  if (status === "passed" || status === "failed" || status === "todo") return status;
  return "skipped";
}

/**
 * One file's outcomes in Vitest's json report (`vitest run --reporter=json --outputFile`):
 * `{ crashed, error?, tests: Map<key, status> }`; crashed when the file failed with no test reported
 * or carried a file-level error (a failed import, a throw at the top level).
 */
export function vitestOutcomes(report, file) {
  const result = report?.testResults?.find((entry) => entry.name === file) ?? (report?.testResults?.length === 1 ? report.testResults[0] : undefined);
  if (!result) return { crashed: true, error: "no result for the file in Vitest's report", tests: new Map() };
  const tests = keyed(result.assertionResults.map((test) => ({ path: [...test.ancestorTitles, test.title], status: vitestStatus(test.status) })));
  const error = result.status === "failed" && result.message ? firstLine(result.message) : undefined;
  return { crashed: error !== undefined && (tests.size === 0 || [...tests.values()].every((status) => status !== "passed")), error, tests };
}

/**
 * One file's outcomes in Turnlens's json report (`turnlens test --reporter json --outputFile`):
 * the same shape; crashed when the file could not be loaded (`error` on the file's report).
 */
export function turnlensOutcomes(report, file) {
  const result = report?.files?.find((entry) => entry.file === file) ?? (report?.files?.length === 1 ? report.files[0] : undefined);
  if (!result) return { crashed: true, error: "no result for the file in Turnlens's report", tests: new Map() };
  const tests = keyed(result.tests.map((test) => ({ path: test.path, status: test.status })));
  const error = result.error ? firstLine(result.error.message ?? String(result.error)) : undefined;
  return { crashed: error !== undefined, error, tests };
}

function firstLine(text) {
  return String(text).trim().split("\n")[0].slice(0, 300);
}

/**
 * A file's row: the tests Vitest reported, those it passed, those Turnlens passed, and those Turnlens
 * passed of the ones Vitest passed (a test counts for Turnlens only if Vitest passed it too);
 * `unmatched` lists Turnlens's tests whose key Vitest never reported (a naming difference, or a test
 * only one runner collected).
 */
export function compareFile(file, vitest, turnlens) {
  let vitestPassed = 0;
  let turnlensPassed = 0;
  let bothPassed = 0;
  const lost = [];
  for (const [key, status] of vitest.tests) {
    if (status !== "passed") continue;
    vitestPassed++;
    if (turnlens.tests.get(key) === "passed") bothPassed++;
    else lost.push({ key, turnlens: turnlens.tests.get(key) ?? "missing" });
  }
  for (const status of turnlens.tests.values()) if (status === "passed") turnlensPassed++;
  const unmatched = [...turnlens.tests.keys()].filter((key) => !vitest.tests.has(key));
  return {
    file,
    tests: vitest.tests.size,
    vitestPassed,
    turnlensPassed,
    bothPassed,
    vitestCrashed: vitest.crashed,
    turnlensCrashed: turnlens.crashed,
    ...(vitest.error ? { vitestError: vitest.error } : {}),
    ...(turnlens.error ? { turnlensError: turnlens.error } : {}),
    lost,
    unmatched,
  };
}

/** The sums over the rows, and the ratio of Turnlens's passes among the tests Vitest passes. */
export function totals(rows) {
  const sum = (key) => rows.reduce((total, row) => total + row[key], 0);
  const vitestPassed = sum("vitestPassed");
  const bothPassed = sum("bothPassed");
  return {
    files: rows.length,
    tests: sum("tests"),
    vitestPassed,
    turnlensPassed: sum("turnlensPassed"),
    bothPassed,
    turnlensCrashedFiles: rows.filter((row) => row.turnlensCrashed).length,
    vitestCrashedFiles: rows.filter((row) => row.vitestCrashed).length,
    ratio: vitestPassed === 0 ? 0 : bothPassed / vitestPassed,
  };
}

/** The Markdown table: a row per file, then the totals and the ratio. */
export function table(rows) {
  const lines = ["| file | tests | pass under Vitest | pass under Turnlens | Turnlens passes of Vitest passes | crashed? |", "| --- | ---: | ---: | ---: | ---: | --- |"];
  const crashed = (row) => [row.vitestCrashed ? "Vitest" : "", row.turnlensCrashed ? "Turnlens" : ""].filter(Boolean).join(", ") || "no";
  for (const row of rows) lines.push(`| ${row.file} | ${row.tests} | ${row.vitestPassed} | ${row.turnlensPassed} | ${row.bothPassed} | ${crashed(row)} |`);
  const all = totals(rows);
  lines.push(
    `| **${all.files} files** | ${all.tests} | ${all.vitestPassed} | ${all.turnlensPassed} | ${all.bothPassed} | ${all.turnlensCrashedFiles} under Turnlens, ${all.vitestCrashedFiles} under Vitest |`,
  );
  lines.push("", `Turnlens passes ÷ tests Vitest passes: ${all.bothPassed} / ${all.vitestPassed} = ${(all.ratio * 100).toFixed(1)}%`);
  return lines.join("\n");
}
