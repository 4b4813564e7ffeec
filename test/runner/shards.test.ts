// How `--shard` splits a run's files (core/project/shards.ts), what the durations file keeps
// (durationsFile.ts), and which CI variables name a shard (core/runner/ciShard.ts).
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DurationsFileError, readDurations, writeDurations } from "../../core/project/durationsFile.ts";
import { shardPlan } from "../../core/project/shards.ts";
import { CI_SHARD_VARIABLES, ciShard } from "../../core/runner/ciShard.ts";

/** `count` sorted file names, `/p/f000.test.ts`…. */
const filesOf = (count: number) => Array.from({ length: count }, (_, index) => `/p/f${String(index).padStart(3, "0")}.test.ts`);

/** The files of each shard, by the plan. */
function shardsOf(files: string[], count: number, durations?: Map<string, number>): string[][] {
  const plan = shardPlan(files, count, durations);
  return Array.from({ length: count }, (_, shard) => files.filter((_, position) => plan.shardOf[position] === shard));
}

/** A small deterministic generator, so the skewed suite is the same every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe("--shard's split", () => {
  test("without durations, every n-th file of the sorted list, as before", () => {
    const shards = shardsOf(filesOf(7), 3);
    expect(shards).toEqual([
      ["/p/f000.test.ts", "/p/f003.test.ts", "/p/f006.test.ts"],
      ["/p/f001.test.ts", "/p/f004.test.ts"],
      ["/p/f002.test.ts", "/p/f005.test.ts"],
    ]);
  });

  test("400 files, a few 20× the rest, in 8 shards by time: the slowest shard within 1.15× the mean, every file in exactly one", () => {
    const files = filesOf(400);
    const next = random(7);
    const durations = new Map(files.map((file) => [file, Math.round((next() < 0.03 ? 400 : 20) * (0.8 + 0.4 * next()))]));
    const timeOf = (shard: string[]) => shard.reduce((sum, file) => sum + durations.get(file)!, 0);
    const byTime = shardsOf(files, 8, durations);
    const byCount = shardsOf(files, 8);
    expect(byTime.flat().sort()).toEqual(files);
    const mean = files.reduce((sum, file) => sum + durations.get(file)!, 0) / 8;
    const slowest = Math.max(...byTime.map(timeOf));
    expect(slowest / mean).toBeLessThanOrEqual(1.15);
    // The same files by count leave one shard far behind (the figure the docs compare against).
    expect(Math.max(...byCount.map(timeOf)) / mean).toBeGreaterThan(1.15);
  });

  test("files the durations do not know are spread over the shards by count, at the median of the known", () => {
    const files = filesOf(40);
    // Only the first 8 files are known, all alike: the 32 new ones go 4 to a shard.
    const durations = new Map(files.slice(0, 8).map((file) => [file, 100]));
    const shards = shardsOf(files, 8, durations);
    expect(shards.map((shard) => shard.length)).toEqual([5, 5, 5, 5, 5, 5, 5, 5]);
    expect(shardPlan(files, 8, durations)).toMatchObject({ by: "time", known: 8 });
  });

  test("every shard computes the same split from the same files and durations", () => {
    const files = filesOf(50);
    const durations = new Map(files.map((file, index) => [file, (index * 37) % 11]));
    expect(shardPlan(files, 4, durations)).toEqual(shardPlan([...files], 4, new Map([...durations].reverse())));
  });
});

describe("the durations file", () => {
  const folder = () => mkdtempSync(join(tmpdir(), "turnlens-durations-"));

  test("keeps paths relative to its own folder, other shards' entries, and drops files that are gone", () => {
    const root = folder();
    try {
      for (const name of ["a.test.ts", "b.test.ts"]) writeFileSync(join(root, name), "");
      const path = join(root, "durations.json");
      writeDurations(path, new Map([[join(root, "a.test.ts"), 12.4]]));
      writeDurations(path, new Map([[join(root, "b.test.ts"), 30]]));
      expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ turnlens: "durations", version: 1, files: { "a.test.ts": 12, "b.test.ts": 30 } });
      rmSync(join(root, "a.test.ts"));
      writeDurations(path, new Map([[join(root, "b.test.ts"), 31]]));
      expect(readDurations(path)).toEqual(new Map([[join(root, "b.test.ts"), 31]]));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("no file yet is no durations; a file that is not one names itself and what is wrong", () => {
    const root = folder();
    try {
      expect(readDurations(join(root, "none.json")).size).toBe(0);
      const path = join(root, "bad.json");
      const refusal = (text: string) => {
        writeFileSync(path, text);
        try {
          readDurations(path);
        } catch (error) {
          expect(error).toBeInstanceOf(DurationsFileError);
          return (error as Error).message;
        }
        return "read";
      };
      expect(refusal("{")).toStartWith(`the durations file ${path} could not be read:`);
      expect(refusal("[]")).toBe(`the durations file ${path} is not one turnlens wrote: it needs {"turnlens": "durations", "version": 1, "files": {…}}`);
      expect(refusal('{"turnlens":"durations","version":2,"files":{}}')).toBe(`the durations file ${path} has version 2; this turnlens reads version 1`);
      expect(refusal('{"turnlens":"durations","version":1,"files":{"a.test.ts":-1}}')).toBe(
        `the durations file ${path} gives "a.test.ts" the time -1; a time is a number of ms from 0`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a CI's own shard variables", () => {
  test("Bazel's are read unasked, counted from 0", () => {
    expect(ciShard({ TEST_SHARD_INDEX: "2", TEST_TOTAL_SHARDS: "8" }, false)).toEqual({
      index: 3,
      count: 8,
      ci: "Bazel",
      from: "Bazel's TEST_SHARD_INDEX=2 and TEST_TOTAL_SHARDS=8",
    });
  });

  test("GitLab's are read only with --shard auto (parallel: matrix jobs set them too, each wanting the whole suite)", () => {
    const env = { CI_NODE_INDEX: "2", CI_NODE_TOTAL: "4" };
    expect(ciShard(env, false)).toBeUndefined();
    expect(ciShard(env, true)).toMatchObject({ index: 2, count: 4, ci: "GitLab" });
  });

  test("every CI of the table is read with auto, each from its own base", () => {
    for (const variables of CI_SHARD_VARIABLES) {
      const env = { [variables.index]: String(variables.base + 1), [variables.count]: "3" };
      expect(ciShard(env, true)).toMatchObject({ index: 2, count: 3, ci: variables.ci });
    }
  });

  test("one shard is no sharding; values that name no shard are a usage error naming them", () => {
    expect(ciShard({ TEST_SHARD_INDEX: "0", TEST_TOTAL_SHARDS: "1" }, false)).toBeUndefined();
    expect(() => ciShard({ TEST_SHARD_INDEX: "8", TEST_TOTAL_SHARDS: "8" }, false)).toThrow(
      "Bazel's TEST_SHARD_INDEX=8 and TEST_TOTAL_SHARDS=8 name no shard: TEST_SHARD_INDEX counts from 0 and stays below 0 + TEST_TOTAL_SHARDS, both whole numbers",
    );
    expect(() => ciShard({ CI_NODE_INDEX: "x", CI_NODE_TOTAL: "2" }, true)).toThrow("GitLab's CI_NODE_INDEX=x and CI_NODE_TOTAL=2 name no shard");
  });

  test("--shard auto with no CI's variables says which it looked for", () => {
    expect(() => ciShard({}, true)).toThrow(
      "--shard auto reads the shard from a CI's variables, and none is set: TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel), CI_NODE_INDEX/CI_NODE_TOTAL (GitLab)",
    );
  });
});
