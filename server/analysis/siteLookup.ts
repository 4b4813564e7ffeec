// Finding what the static pass saw at a place a run reported: the entry at a runtime site
// (1-based line and column from a stack trace) or at a script key and list position, the
// testWorkflow call there, the test by its path.

import type { Position, StaticEntry, StaticScript, StaticScripts, StaticTest, StaticTestFile, StaticTestWorkflowCall } from "./model.ts";
import { positionOfSite, rangeContains, rangeSize, samePosition } from "./ranges.ts";

export interface EntryAtSite {
  call: StaticTestWorkflowCall;
  script: StaticScript;
  entry: StaticEntry;
}

/** Every entry of a script: those written in it, and those of the const it names. */
export function entriesOfScript(script: StaticScript): StaticEntry[] {
  const entries: StaticEntry[] = [];
  for (const entry of [...script.entries, ...(script.definition?.entries ?? [])]) {
    entries.push(entry);
    if (entry.definition) entries.push(entry.definition);
  }
  return entries;
}

/** The scripts whose entries a runtime site may point at: those of every keyed option but `participants`. */
function scriptsWithEntries(call: StaticTestWorkflowCall): StaticScript[] {
  return [call.agents, call.decisions, call.compactions, call.messages].flatMap((scripts) => scripts?.scripts ?? []);
}

/** How well an entry matches a site: 2 at its callee's start, 1 inside it, 0 not at all. */
function siteScore(entry: StaticEntry, site: Position): number {
  if (entry.calleeRange && samePosition(entry.calleeRange.start, site)) return 2;
  return rangeContains(entry.range, site) ? 1 : 0;
}

/**
 * Every script entry at a runtime site, best first: entries whose callee starts there, then
 * entries containing it, innermost first. A const shared by several calls gives one per call.
 */
export function entriesAtSite(model: StaticTestFile, line1Based: number, column1Based: number): EntryAtSite[] {
  const site = positionOfSite(line1Based, column1Based);
  const found: Array<EntryAtSite & { score: number }> = [];
  for (const call of model.calls) {
    for (const script of scriptsWithEntries(call)) {
      for (const entry of entriesOfScript(script)) {
        const score = siteScore(entry, site);
        if (score > 0) found.push({ call, script, entry, score });
      }
    }
  }
  found.sort((left, right) => right.score - left.score || rangeSize(left.entry.range) - rangeSize(right.entry.range));
  return found.map(({ call, script, entry }) => ({ call, script, entry }));
}

/**
 * The script entry at a runtime site (an `EntryTrace.site` or `MatchTrace.site`). A const shared
 * by several calls is reached from each: give `testIndex` to prefer the call in that test.
 */
export function entryAtSite(model: StaticTestFile, line1Based: number, column1Based: number, testIndex?: number): EntryAtSite | undefined {
  const found = entriesAtSite(model, line1Based, column1Based);
  if (testIndex !== undefined) {
    const inTest = found.find((match) => match.call.testIndex === testIndex);
    if (inTest) return inTest;
  }
  return found[0];
}

/** An answer(...)/noAnswer.*() call at a runtime site that no script reaches (see `looseEntries`). */
export function looseEntryAtSite(model: StaticTestFile, line1Based: number, column1Based: number): StaticEntry | undefined {
  const site = positionOfSite(line1Based, column1Based);
  let best: StaticEntry | undefined;
  let bestScore = 0;
  for (const entry of model.looseEntries ?? []) {
    const score = siteScore(entry, site);
    if (score > bestScore || (score > 0 && score === bestScore && best && rangeSize(entry.range) < rangeSize(best.range))) {
      best = entry;
      bestScore = score;
    }
  }
  return best;
}

/** The testWorkflow call at a runtime site (a `RunTrace.site`): its callee's start, or inside the call. */
export function callAtSite(model: StaticTestFile, line1Based: number, column1Based: number): StaticTestWorkflowCall | undefined {
  const site = positionOfSite(line1Based, column1Based);
  const exact = model.calls.find((call) => samePosition(call.calleeRange.start, site));
  if (exact) return exact;
  let best: StaticTestWorkflowCall | undefined;
  for (const call of model.calls) {
    if (rangeContains(call.range, site) && (!best || rangeSize(call.range) < rangeSize(best.range))) best = call;
  }
  return best;
}

/** The innermost test or describe whose call contains a runtime site (a `TestReport.location`). */
export function testAtSite(model: StaticTestFile, line1Based: number, column1Based: number): StaticTest | undefined {
  const site = positionOfSite(line1Based, column1Based);
  let best: StaticTest | undefined;
  for (const test of model.tests) {
    if (rangeContains(test.range, site) && (!best || rangeSize(test.range) < rangeSize(best.range))) best = test;
  }
  return best;
}

/**
 * The test the runner reports under `path` (`TestReport.path`: describe names, then the test's).
 * Names written as literals match exactly; `.each` rows and templates match their `namePattern`.
 * `occurrence` picks among tests with the same path: the runner's id adds " (2)" to the second.
 */
export function testAt(model: StaticTestFile, path: readonly string[], occurrence = 1): StaticTest | undefined {
  let bestScore = 0;
  let best: StaticTest[] = [];
  for (const test of model.tests) {
    const score = pathScore(model, test, path);
    if (score > bestScore) {
      bestScore = score;
      best = [test];
    } else if (score > 0 && score === bestScore) {
      best.push(test);
    }
  }
  return best[occurrence - 1] ?? best[0];
}

/** 2 per name matched exactly, 1 per name matched by a pattern, one more for a test over a describe; 0 when any name doesn't match. */
function pathScore(model: StaticTestFile, test: StaticTest, path: readonly string[]): number {
  if (test.path.length !== path.length) return 0;
  let score = test.kind === "test" ? 1 : 0;
  let current: StaticTest | undefined = test;
  for (let depth = path.length - 1; depth >= 0; depth--) {
    if (!current) return 0;
    const reported = path[depth]!;
    if (current.name === reported) score += 2;
    else if (current.namePattern && new RegExp(current.namePattern).test(reported)) score += 1;
    else return 0;
    current = current.parent !== undefined ? model.tests[current.parent] : undefined;
  }
  return score;
}

/** The scripts a call gives under a keyed option (`agents` when none is named, as core's traces leave it). */
export function scriptsOfOption(call: StaticTestWorkflowCall, option: string | undefined): StaticScripts | undefined {
  switch (option ?? "agents") {
    case "agents":
      return call.agents;
    case "decisions":
      return call.decisions;
    case "compactions":
      return call.compactions;
    case "messages":
      return call.messages;
    case "participants":
      return call.participants;
    default:
      return undefined;
  }
}

/**
 * The entry a script key and list position name (a `MatchTrace` or problem without a site, such
 * as a `messages` function's): the list's `index`-th entry, or a single entry for `null`.
 */
export function entryByKey(
  call: StaticTestWorkflowCall,
  option: string | undefined,
  key: string,
  index: number | null | undefined,
): { script: StaticScript; entry?: StaticEntry } | undefined {
  const script = scriptsOfOption(call, option)?.scripts.find((candidate) => candidate.key === key);
  if (!script) return undefined;
  const written = script.shape === "other" && script.definition ? script.definition : script;
  const entries = written.entries;
  const entry = written.shape === "list" ? (index === null || index === undefined ? undefined : entries[index]) : entries[0];
  return entry ? { script, entry } : { script };
}
