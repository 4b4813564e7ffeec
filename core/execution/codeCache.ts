// Loading a CommonJS bundle through a V8 code cache, as Node 22's module.enableCompileCache does and
// Node 20 cannot: the language server's dist/serverMain.js (11 MB, compiling it is ~240 ms of CPU at
// every start, ~55 with the cache) and the test worker's dist/workerMain.js. The cache is this
// user's own (a folder only they can write, checked before use), keyed by the file, its size and
// time, Node's version and flags; V8 itself rejects data that does not match the source or its
// flags, and then it is rewritten.
import { isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { constants, Script } from "node:vm";
import { makePrivateFolder, writeExclusivelySync } from "../tempFolder/privateFolder.ts";

/**
 * How long after loading the cache is written: the functions run by then are in it too. A server
 * that exits sooner (an editor closed at once, a benchmark's start) writes it as it exits.
 */
const WRITE_AFTER_MS = 5000;

function hashOf(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** A folder only this user owns and can use (privateFolder.ts), or undefined (then no cache is used). */
export function cacheFolder(): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const folder = join(tmpdir(), `turnlens-code-cache-${uid}`);
  return makePrivateFolder(folder) === undefined ? folder : undefined;
}

/** Runs the CommonJS file `file` as require would, its compiled code cached between starts; returns its exports. */
export function requireWithCodeCache(file: string): unknown {
  // The bundles are ASCII (esbuild escapes the rest, build.mjs the comments), which read as Latin-1
  // is a one-byte string made at copying speed, where decoding 11 MB as UTF-8 costs ~50 ms; a file
  // with other bytes is UTF-8.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  const folder = cacheFolder();
  const stat = statSync(file);
  // `<the file>-<its build and Node's>.bin`: a new build's cache replaces the old one's (below).
  // Node's flags, where given, are part of the file's key: the CLI's workers and the server's run
  // with different ones, V8 rejects a cache made under other flags, and each set's new build
  // replaces its own.
  const fileKey = hashOf(process.execArgv.length > 0 ? `${file}\0${process.execArgv.join(" ")}` : file);
  const cacheFile = folder ? join(folder, `${fileKey}-${hashOf(`${stat.size}\0${stat.mtimeMs}\0${process.version}\0${process.arch}`)}.bin`) : undefined;
  let cachedData: Buffer | undefined;
  try {
    // Only a file of this user's (another could have been planted in a shared temp folder).
    if (cacheFile && statSync(cacheFile).uid === process.getuid?.()) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const loaded = new Module(file);
  loaded.filename = file;
  loaded.paths = (Module as unknown as { _nodeModulePaths(from: string): string[] })._nodeModulePaths(dirname(file));
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  run.call(loaded.exports, loaded.exports, createRequire(file), loaded, file, dirname(file));
  loaded.loaded = true;
  if (!cacheFile || (cachedData && !script.cachedDataRejected)) return loaded.exports;
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    process.removeListener("exit", write);
    try {
      writeExclusivelySync(cacheFile, script.createCachedData());
      // The caches of this file's earlier builds (or Node versions) would never be read again.
      for (const name of readdirSync(dirname(cacheFile))) {
        const other = join(dirname(cacheFile), name);
        if (name.startsWith(`${fileKey}-`) && name.endsWith(".bin") && other !== cacheFile) rmSync(other, { force: true });
      }
    } catch {
      // No cache this time: the next start compiles again.
    }
  };
  setTimeout(write, WRITE_AFTER_MS).unref();
  process.once("exit", write);
  return loaded.exports;
}
