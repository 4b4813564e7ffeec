// A test's call sites read through the runner's own map of its bundle (bundleMaps.ts, stackText.ts)
// instead of Node's formatting, which would keep every bundle's parsed map for the worker's life.
import { describe, expect, test } from "bun:test";
import { transform } from "esbuild";
import { mapBundleFrame, noteBundle } from "../../core/execution/bundleMaps.ts";
import { stackText, useFrameMapper } from "../../core/testing/stackText.ts";

/** A bundle's text as esbuild writes one (its map inline), of a source at `sourcefile`. */
async function bundleOf(sourcefile: string, source: string): Promise<string> {
  return (await transform(source, { loader: "ts", sourcemap: "inline", sourcefile, format: "esm" })).code;
}

const SOURCE = `// a comment line esbuild drops\nconst value: number = 1;\n\nexport function where(): Error {\n  return new Error(String(value));\n}\n`;

describe("the runner's maps of its bundles", () => {
  test("a frame of a bundle noted is mapped to its source's line and column, as Node's formatting maps it", async () => {
    const code = await bundleOf("/project/src/where.ts", SOURCE);
    const url = "file:///tmp/turnlens-maps-test/where.ts.bundle.1.mjs";
    noteBundle(url, code);
    // `new Error(` is on the bundle's line 3 (the comment and the blank line are gone), column 10.
    const generatedLine = code.split("\n").findIndex((line) => line.includes("new Error(")) + 1;
    const generatedColumn = code.split("\n")[generatedLine - 1]!.indexOf("new Error(") + 1;
    expect(mapBundleFrame(url, generatedLine, generatedColumn)).toEqual({ file: "/project/src/where.ts", line: 5, column: 10 });
  });

  test("a bundle's map is kept for the two files last noted: an older bundle's frames are no longer mapped by it", async () => {
    const urls = [1, 2, 3].map((n) => `file:///tmp/turnlens-maps-test/kept.ts.bundle.${n}.mjs`);
    for (const url of urls) noteBundle(url, await bundleOf("/project/src/kept.ts", SOURCE));
    // The oldest falls back to Node's own cache, which never loaded it.
    expect(mapBundleFrame(urls[0]!, 3, 10)).toBeUndefined();
    expect(mapBundleFrame(urls[1]!, 3, 10)).toEqual({ file: "/project/src/kept.ts", line: 5, column: 10 });
    expect(mapBundleFrame(urls[2]!, 3, 10)).toEqual({ file: "/project/src/kept.ts", line: 5, column: 10 });
  });

  test("a bundle without an inline map maps none of its frames", () => {
    const url = "file:///tmp/turnlens-maps-test/plain.js.bundle.1.mjs";
    noteBundle(url, "export const a = 1;\n");
    expect(mapBundleFrame(url, 1, 1)).toBeUndefined();
  });
});

describe("a captured stack's text", () => {
  function captured(): { stack?: unknown } {
    const holder = {};
    Error.captureStackTrace(holder);
    return holder;
  }

  test("with a frame mapper installed, every frame with a place is written where the mapper says", () => {
    const runners = useFrameMapper((fileName, line, column) =>
      fileName.includes("bundleMaps.test.ts") ? { file: "/mapped/test.ts", line: line + 1000, column } : undefined,
    );
    try {
      const text = stackText(captured()) ?? "";
      expect(text.split("\n")[0]).toBe("Error");
      expect(text.split("\n")[1]).toMatch(/^ {4}at \/mapped\/test\.ts:\d{4,}:\d+$/);
    } finally {
      useFrameMapper(runners);
    }
  });

  test("a formatter a tool installed (Vitest's source-map support, a test's own) is used instead of the mapper", () => {
    const previous = Error.prepareStackTrace;
    const runners = useFrameMapper(() => ({ file: "/mapped/test.ts", line: 1, column: 1 }));
    Error.prepareStackTrace = () => "the tool's own text";
    try {
      expect(stackText(captured())).toBe("the tool's own text");
    } finally {
      Error.prepareStackTrace = previous;
      useFrameMapper(runners);
    }
  });

  test("without a mapper the stack is Node's own text", () => {
    const runners = useFrameMapper(undefined);
    try {
      const holder = captured();
      expect(stackText(holder)).toBe(holder.stack as string);
    } finally {
      useFrameMapper(runners);
    }
  });
});
