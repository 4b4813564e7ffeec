// What `tsc` checks of a turnlens.config.ts: each `@ts-expect-error` line must be a type error
// (npm run typecheck fails on one that isn't), and each test also asserts the refusal the same
// mistake gets at run time from the config's check (a .js or .json config has no tsc).
import { describe, expect, test } from "bun:test";
import { defineConfig, type TurnlensConfig } from "turnlens/config";
import { parseTestArgs } from "../../core/runner/testFlags.ts";
import { withConfig } from "../../core/runner/testOptions.ts";
import { checkConfig } from "../../core/project/configFile.ts";
import { chooseReporters } from "../../core/runner/reporters/reporterGroup.ts";

const refusal = (config: unknown) => {
  try {
    checkConfig(config, "/p/turnlens.config.ts", "turnlens.config.ts");
    return "accepted";
  } catch (error) {
    return (error as Error).message;
  }
};

describe("defineConfig, as tsc checks it", () => {
  test("every key with a value of its type is a config, and the check takes it", () => {
    const config: TurnlensConfig = defineConfig({
      include: ["test/"],
      exclude: ["test/fixtures/**"],
      testTimeout: 10_000,
      maxWorkers: "50%",
      reporters: ["default", ["junit", { suiteName: "turnlens" }]],
      outputFile: { junit: "junit.xml" },
      silent: false,
      passWithNoTests: true,
      bail: 1,
      testNamePattern: /adds/,
    });
    expect(refusal(config)).toBe("accepted");
    expect(refusal(defineConfig({ maxWorkers: 2, reporters: "dot", outputFile: "report.json", testNamePattern: "adds" }))).toBe("accepted");
  });

  test("an unknown key is a type error, and refused by name with the nearest", () => {
    // @ts-expect-error testTimout is not a key
    const config = defineConfig({ testTimout: 1000 });
    expect(refusal(config)).toBe('turnlens.config.ts takes no option "testTimout"; did you mean "testTimeout"?');
    // @ts-expect-error workers is Vitest's old name: maxWorkers
    expect(refusal(defineConfig({ workers: 2 }))).toBe('turnlens.config.ts takes no option "workers"; did you mean "maxWorkers"?');
  });

  test("a value of the wrong type is a type error, and refused naming the key and the type", () => {
    // @ts-expect-error a duration string is not a number of milliseconds
    expect(refusal(defineConfig({ testTimeout: "5s" }))).toBe(
      'turnlens.config.ts: "testTimeout" must be a whole number of milliseconds from 0 (no timeout) to 2147483647, not "5s"',
    );
    // @ts-expect-error "many" is neither a count nor a percentage
    expect(refusal(defineConfig({ maxWorkers: "many" }))).toBe(
      'turnlens.config.ts: "maxWorkers" must be a whole number of workers from 1, or a share of the cores such as "50%", not "many"',
    );
    // @ts-expect-error include is an array of paths
    expect(refusal(defineConfig({ include: "test/" }))).toBe('turnlens.config.ts: "include" must be an array of paths, not "test/"');
  });

  test("a reporter name that is not one is a type error, and refused with the nearest", () => {
    // @ts-expect-error "junti" is no reporter (the reporters refuse it by name at run time)
    const config = defineConfig({ reporters: ["junti"] });
    expect(refusal(config)).toBe(
      'turnlens.config.ts: "reporters": no reporter "junti"; did you mean "junit"? (the reporters: default, pretty, dot, verbose, json, junit, tap, github-actions, agent, blob)',
    );
    // On the command line, the reporters refuse it where they are chosen (exit 2).
    const options = parseTestArgs(["--reporter", "dots"]);
    if (typeof options === "string") throw new Error(options);
    expect(() => chooseReporters(options.reporters, undefined, {})).toThrow('no reporter "dots"; did you mean "dot"?');
  });
});

describe("the command line over the config", () => {
  test("--reporter repeated, --outputFile.<name> and --silent make the reporters' options", () => {
    const options = parseTestArgs(["--reporter", "dot", "--reporter=junit", "--outputFile.junit=junit.xml", "--outputFile.json", "r.json", "--silent"]);
    if (typeof options === "string") throw new Error(options);
    expect(options.reporters).toEqual([
      { name: "dot", options: {} },
      { name: "junit", options: {} },
    ]);
    expect(options.outputFile).toEqual({ junit: "junit.xml", json: "r.json" });
    expect(options.silent).toBe(true);
  });

  test("the config's reporters come with their options unless --reporter is given; flags win", () => {
    const config = checkConfig(
      { reporters: ["default", ["junit", { suiteName: "x" }]], outputFile: { junit: "out/junit.xml" }, testTimeout: 0, bail: 2, silent: true },
      "/p/turnlens.config.ts",
      "turnlens.config.ts",
    );
    const fromFile = withConfig(parseTestArgs([]) as Exclude<ReturnType<typeof parseTestArgs>, string>, config);
    expect(fromFile.reporters).toEqual([
      { name: "default", options: {} },
      { name: "junit", options: { suiteName: "x" } },
    ]);
    expect(fromFile.outputFile).toEqual({ junit: "/p/out/junit.xml" });
    expect([fromFile.timeoutMs, fromFile.bail, fromFile.silent]).toEqual([2 ** 31 - 1, 2, true]);
    const flags = withConfig(
      parseTestArgs(["--reporter", "tap", "--bail", "5", "--silent=false", "--testTimeout", "1s"]) as Exclude<ReturnType<typeof parseTestArgs>, string>,
      config,
    );
    expect([flags.reporters, flags.bail, flags.silent, flags.timeoutMs]).toEqual([[{ name: "tap", options: {} }], 5, false, 1000]);
  });
});
