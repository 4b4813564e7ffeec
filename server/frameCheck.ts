// The client's message frames are checked before vscode-jsonrpc reads them: a frame whose
// Content-Length is not a plain byte count is skipped (and said) and reading resyncs at the next
// header. vscode-jsonrpc's reader takes `parseInt` of the header, and a negative length corrupts
// its buffer's byte count for good: every later message is misread and the server is deaf.
import { Emitter, ReadableStreamMessageReader } from "vscode-languageserver";

/** A frame's body larger than this is refused as a bad header (an LSP message is never 512 MiB). */
export const MAX_CONTENT_LENGTH = 2 ** 29;

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
        if (this.length < this.frameSize) return;
        const all = this.take();
        const frame = all.subarray(0, this.frameSize);
        this.keep(all.subarray(this.frameSize));
        this.frameSize = undefined;
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
            : `skipped a message frame whose Content-Length is ${JSON.stringify(value.slice(0, 40))}, not a byte count up to ${MAX_CONTENT_LENGTH}; reading on from the next header`,
        );
        this.keep(pending.subarray(headerEnd + HEADER_END.length));
        this.resyncing = true;
        continue;
      }
      this.frameSize = headerEnd + HEADER_END.length + bodyLength;
    }
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
