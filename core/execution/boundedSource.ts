// Reads a file a bundle imports without letting it hang or flood the bundler: a named pipe, a device
// (a symbolic link to /dev/zero) or a file over the size cap is refused by its kind, and a file is
// never read past the cap even if it grows while it is read.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { BUNDLE_FILE_CAP_BYTES } from "./limits.ts";

/** Why a file cannot be bundled, worded to follow "<file> imports <module>, which …". */
export class UnbundlableFile extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

/** What a file that is not a regular file is, in words (what `fstat` says of it). */
function kindOf(stat: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  if (stat.isDirectory()) return "a folder";
  return "not a file";
}

const MEGABYTE = 1024 * 1024;

function tooLarge(bytes: number | undefined): UnbundlableFile {
  const size = bytes === undefined ? "" : ` (${(bytes / MEGABYTE).toFixed(1)} MB)`;
  return new UnbundlableFile(`is larger than ${BUNDLE_FILE_CAP_BYTES / MEGABYTE} MB${size}, the most a test's bundle reads from one file`);
}

/**
 * Opens `path` without blocking (opening a named pipe waits for a writer otherwise) and checks
 * what it is. With `read`, returns its text, read in pieces and never past the cap; without, only
 * checks it (esbuild then reads a file whose loader it picks itself). Throws UnbundlableFile.
 * Synchronous: a source file is small and local, and each await of fs/promises' open, stat, read
 * and close went through libuv's thread pool (a test file and its workflow: 4.2 ms, now 0.7, at load 15).
 */
export async function readBoundedSource(path: string, read: boolean): Promise<string | undefined> {
  return readBoundedSourceSync(path, read);
}

function readBoundedSourceSync(path: string, read: boolean): string | undefined {
  const handle = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(handle);
    if (!stat.isFile()) throw new UnbundlableFile(`is not a regular file: it is ${kindOf(stat)}`);
    if (stat.size > BUNDLE_FILE_CAP_BYTES) throw tooLarge(stat.size);
    if (!read) return undefined;
    // One byte past the size tells a file that grew since fstat; it may grow up to the cap, no further.
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > BUNDLE_FILE_CAP_BYTES) throw tooLarge(undefined);
        const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, BUNDLE_FILE_CAP_BYTES + 1));
        buffer.copy(larger);
        buffer = larger;
      }
      const bytesRead = readSync(handle, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return buffer.toString("utf8", 0, length);
  } finally {
    closeSync(handle);
  }
}
