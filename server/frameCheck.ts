// The client's message frames are checked before vscode-jsonrpc reads them: a frame whose
// Content-Length is not a plain byte count, or is above the cap, is skipped (and said) and reading
// resyncs at the next header; so is a frame whose body is cut short by the next header. vscode-jsonrpc's
// reader takes `parseInt` of the header (a negative length corrupts its buffer's byte count for good)
// and waits for any announced length: either way every later message was lost and the server deaf.
import { Emitter, ReadableStreamMessageReader } from "vscode-languageserver";
import { MAX_CONTENT_LENGTH } from "./limits.ts";

/** The cap as people read it. */
const CAP_WORDS = `${MAX_CONTENT_LENGTH} bytes (64 MiB)`;

/**
 * A header inside a body means that body was cut short and the next frame began: `Content-Length:`
 * is no JSON (an LSP body) outside a string, and a string holds no raw CR or LF, which end the
 * header's line.
 */
const HEADER_IN_BODY = /content-length[ \t]*:[ \t]*\d+[ \t]*\r\n/i;

/** Fired with what was skipped; each server logs it (the check is on the reader class, for every connection). */
export const skippedFrames = new Emitter<string>();

const HEADER_END = Buffer.from("\r\n\r\n", "latin1");

/**
 * Cuts the bytes read into whole, well-formed frames (headers and body) for vscode-jsonrpc's own
 * parsing; bad headers are dropped, along with what follows up to the next `Content-Length:`.
 */
export class FrameCheck {
  private chunks: Buffer[] = [];
  private length = 0;
  /** The whole frame's size once its header was read; undefined while reading headers. */
  private frameSize: number | undefined;
  /** After a bad header: dropping bytes until the next `Content-Length:`. */
  private resyncing = false;
  /** While a body comes: where its headers end, its announced length, and how far it was searched for a header. */
  private body: { start: number; length: number; searched: number; tail: string } | undefined;

  constructor(
    private readonly forward: (frame: Buffer) => void,
    private readonly skipped: (why: string) => void,
  ) {}

  push(data: Uint8Array | string): void {
    const chunk = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    this.chunks.push(chunk);
    this.length += chunk.length;
    for (;;) {
      if (this.frameSize !== undefined) {
        if (this.cutShort(this.frameSize)) continue;
        if (this.length < this.frameSize) return;
        const all = this.take();
        const frame = all.subarray(0, this.frameSize);
        this.keep(all.subarray(this.frameSize));
        this.frameSize = undefined;
        this.body = undefined;
        this.forward(frame);
        continue;
      }
      const pending = this.take();
      this.keep(pending);
      if (this.resyncing) {
        const start = pending.toString("latin1").search(/content-length\s*:/i);
        if (start < 0) {
          // Keep a tail that may be the start of the next header.
          this.keep(pending.subarray(Math.max(0, pending.length - 32)));
          return;
        }
        this.keep(pending.subarray(start));
        this.resyncing = false;
        continue;
      }
      const headerEnd = pending.indexOf(HEADER_END);
      if (headerEnd < 0) return;
      const headers = pending.subarray(0, headerEnd).toString("latin1");
      const value = headers
        .split("\r\n")
        .map((line) => /^content-length[ \t]*:(.*)$/i.exec(line)?.[1]?.trim())
        .find((found) => found !== undefined);
      const bodyLength = value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
      if (bodyLength === undefined || bodyLength > MAX_CONTENT_LENGTH) {
        this.skipped(
          value === undefined
            ? `skipped a message frame without a Content-Length header (${JSON.stringify(headers.slice(0, 200))}); reading on from the next header`
            : bodyLength === undefined
              ? `skipped a message frame whose Content-Length is ${JSON.stringify(value.slice(0, 40))}, not a byte count; reading on from the next header`
              : `skipped a message frame whose Content-Length is ${value.slice(0, 40)} bytes, above the cap of ${CAP_WORDS}; reading on from the next header`,
        );
        this.keep(pending.subarray(headerEnd + HEADER_END.length));
        this.resyncing = true;
        continue;
      }
      this.frameSize = headerEnd + HEADER_END.length + bodyLength;
      this.body = { start: headerEnd + HEADER_END.length, length: bodyLength, searched: headerEnd + HEADER_END.length, tail: "" };
    }
  }

  /**
   * Whether the body being read (up to `frameSize`) was cut short by a header (then it is skipped,
   * said, and reading goes on from that header). Each byte is searched once, without joining the
   * chunks of a body still coming (a 60 MB body arrives in a thousand of them).
   */
  private cutShort(frameSize: number): boolean {
    const body = this.body;
    if (!body) return false;
    let offset = 0;
    for (const chunk of this.chunks) {
      const end = Math.min(offset + chunk.length, frameSize);
      const from = Math.max(offset, body.searched);
      if (from < end) {
        // The last bytes searched come again, so a header split across two chunks is found.
        const tail = body.tail;
        const text = tail + chunk.subarray(from - offset, end - offset).toString("latin1");
        body.searched = end;
        body.tail = text.slice(-64);
        const found = HEADER_IN_BODY.exec(text);
        if (found) {
          const at = from - tail.length + found.index;
          this.skipped(
            `skipped a message frame whose body was cut short: it announced ${body.length} bytes, and a new header came after ${at - body.start}; reading on from that header`,
          );
          this.keep(this.take().subarray(at));
          this.frameSize = undefined;
          this.body = undefined;
          return true;
        }
      }
      offset = end;
    }
    return false;
  }

  private take(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.length);
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
  }
}

let installed = false;

/**
 * Puts a FrameCheck in front of every stream reader's `onData` (the one entry its `listen` feeds
 * bytes through). Idempotent; the server calls it before `connection.listen()`.
 */
export function checkIncomingFrames(): void {
  if (installed) return;
  installed = true;
  const prototype = ReadableStreamMessageReader.prototype as unknown as { onData(data: Uint8Array | string): void };
  const read = prototype.onData;
  const checks = new WeakMap<object, FrameCheck>();
  prototype.onData = function (this: object, data: Uint8Array | string): void {
    let check = checks.get(this);
    if (!check) {
      check = new FrameCheck(
        (frame) => read.call(this, frame),
        (why) => skippedFrames.fire(why),
      );
      checks.set(this, check);
    }
    check.push(data);
  };
}
