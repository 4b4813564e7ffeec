// What the worker records of a test file's use of the file system (core/execution/fileSystemReach.ts):
// which calls read which paths, which change them, and that every name its table gives is a function
// this Node has, so a renamed one is not silently counted as a change.
import { describe, expect, test } from "bun:test";
import * as fs from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { accessOf, FILE_SYSTEM_ACCESS, pathsTouched, readsOnly } from "../../core/execution/fileSystemReach.ts";

const touched = (name: string, ...args: unknown[]) => pathsTouched(accessOf(name), args);

describe("the file system a test file reaches", () => {
  test("reading calls read their path, in every form: callback, Sync, promises, a URL, a relative path", () => {
    expect(touched("readFile", "/p/a.txt", () => {})).toEqual({ reads: ["/p/a.txt"], writes: [] });
    expect(touched("readFileSync", pathToFileURL("/p/b.txt"))).toEqual({ reads: ["/p/b.txt"], writes: [] });
    expect(touched("readdirSync", "folder")).toEqual({ reads: [resolve("folder")], writes: [] });
    for (const name of ["existsSync", "statSync", "lstatSync", "accessSync", "realpathSync", "readlinkSync", "opendirSync", "createReadStream"]) {
      expect(touched(name, "/p/c")).toEqual({ reads: ["/p/c"], writes: [] });
    }
  });

  test("open reads or writes as its flags say; a descriptor's own calls touch no path", () => {
    expect(touched("open", "/p/a", "r")).toEqual({ reads: ["/p/a"], writes: [] });
    expect(touched("openSync", "/p/a")).toEqual({ reads: ["/p/a"], writes: [] });
    expect(touched("openSync", "/p/a", fs.constants.O_RDONLY)).toEqual({ reads: ["/p/a"], writes: [] });
    for (const flags of ["w", "a", "r+", "wx", fs.constants.O_WRONLY, fs.constants.O_RDONLY | fs.constants.O_CREAT]) {
      expect(touched("open", "/p/a", flags)).toEqual({ reads: [], writes: ["/p/a"] });
    }
    expect(readsOnly("rs")).toBe(true);
    for (const name of ["readSync", "fstatSync", "closeSync", "writeSync", "ftruncateSync", "fchmodSync"])
      expect(touched(name, 7, Buffer.alloc(1))).toEqual({ reads: [], writes: [] });
    expect(touched("writeFileSync", 1, "text")).toEqual({ reads: [], writes: [] });
  });

  test("changing calls change their paths, and their contents are never taken for a path", () => {
    expect(touched("writeFile", "/p/out.txt", "/not/a/path")).toEqual({ reads: [], writes: ["/p/out.txt"] });
    expect(touched("appendFileSync", "/p/log", "line")).toEqual({ reads: [], writes: ["/p/log"] });
    expect(touched("mkdirSync", "/p/dir", { recursive: true })).toEqual({ reads: [], writes: ["/p/dir"] });
    expect(touched("renameSync", "/p/a", "/p/b")).toEqual({ reads: [], writes: ["/p/a", "/p/b"] });
    expect(touched("symlinkSync", "../target", "/p/link")).toEqual({ reads: [], writes: ["/p/link"] });
    expect(touched("copyFileSync", "/p/a", "/p/b")).toEqual({ reads: ["/p/a"], writes: ["/p/b"] });
    expect(touched("cp", "/p/a", "/p/b", () => {})).toEqual({ reads: ["/p/a"], writes: ["/p/b"] });
  });

  test("a function the table does not name counts as a change (a later Node's is never taken for a read), and statfs is one", () => {
    expect(accessOf("someFutureCall")).toBe("write");
    expect(touched("someFutureCall", { options: true })).toEqual({ reads: [], writes: ["(no path)"] });
    expect(accessOf("statfsSync")).toBe("write");
  });

  test("in a test file, fs's wrapped functions keep their names, arities and what hangs off them (realpathSync.native, promisify's forms)", async () => {
    // This file runs in a worker, whose fs is wrapped (fileSystemReach.ts's installFileSystemReach).
    expect([fs.readFile.name, fs.readFile.length, fs.promises.readFile.length, fs.writeFileSync.length]).toEqual(["readFile", 3, 2, 3]);
    expect(typeof fs.realpathSync.native).toBe("function");
    expect(await promisify(fs.exists)(new URL(".", import.meta.url))).toBe(true);
    const descriptor = fs.openSync(new URL(import.meta.url), "r");
    try {
      expect(await promisify(fs.read)(descriptor, Buffer.alloc(2), 0, 2, 0)).toMatchObject({ bytesRead: 2 });
    } finally {
      fs.closeSync(descriptor);
    }
  });

  test("every name in the table is a function of this Node's fs or fs.promises", () => {
    const functions = new Set(
      [...Object.keys(fs), ...Object.keys(fs.promises)].filter(
        (name) => typeof (fs as Record<string, unknown>)[name] === "function" || typeof (fs.promises as Record<string, unknown>)[name] === "function",
      ),
    );
    expect(Object.keys(FILE_SYSTEM_ACCESS).filter((name) => !functions.has(name))).toEqual([]);
  });
});
