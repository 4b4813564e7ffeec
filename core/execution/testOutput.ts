// What a file's code writes to process.stdout and process.stderr, taken in the worker and sent to
// the pool on the runner's channel, in order with the test events, so none of it is lost when the
// worker exits (or is killed) and each piece is charged to the test that wrote it. Each test keeps up to
// OUTPUT_CAP_BYTES; past that the rest is counted, and a line on the stream that was cut says how much.
import { OUTPUT_CAP_BYTES } from "./limits.ts";

type Stream = "stdout" | "stderr";
type Sink = (stream: Stream, text: string) => void;

let sink: Sink | null = null;
let keptBytes = 0;
let cutBytes = 0;
/** The stream the cut began on: the note goes there, where a reader of that stream sees the gap. */
let cutStream: Stream = "stdout";
/** What was kept ends inside a line: the note starts on a line of its own. */
let keptEndsMidLine = false;
let installed = false;

function take(stream: Stream, chunk: unknown, encoding?: unknown): void {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString(typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
  const bytes = Buffer.byteLength(text);
  if (keptBytes + bytes > OUTPUT_CAP_BYTES) {
    if (cutBytes === 0) cutStream = stream;
    const room = OUTPUT_CAP_BYTES - keptBytes;
    if (room > 0) {
      const head = Buffer.from(text).subarray(0, room).toString();
      keptBytes = OUTPUT_CAP_BYTES;
      cutBytes += bytes - Buffer.byteLength(head);
      keep(stream, head);
    } else cutBytes += bytes;
    return;
  }
  keptBytes += bytes;
  keep(stream, text);
}

function keep(stream: Stream, text: string): void {
  if (text !== "") keptEndsMidLine = !text.endsWith("\n");
  push(stream, text);
}

/** A size as a person reads it: `1,020 MB`, `512 KB`, `300 bytes` (binary units, as the cap is). */
export function readableSize(bytes: number): string {
  const grouped = (n: number) => Math.round(n).toLocaleString("en-US");
  if (bytes >= 1024 * 1024) return `${grouped(bytes / (1024 * 1024))} MB`;
  if (bytes >= 1024) return `${grouped(bytes / 1024)} KB`;
  return `${bytes} byte${bytes === 1 ? "" : "s"}`;
}

// Each write is sent at once, not batched: a test that prints and then blocks its worker for good
// (a synchronous loop the watchdog kills) still has its last line in the report.
function push(stream: Stream, text: string): void {
  sink?.(stream, text);
}

/** A test is over (or starts): says how much of its output was cut, and opens a fresh allowance. */
export function endOutputOfTest(): void {
  if (cutBytes > 0) {
    const note = `${keptEndsMidLine ? "\n" : ""}… ${readableSize(cutBytes)} of this test's output cut (showing its first ${readableSize(OUTPUT_CAP_BYTES)})\n`;
    push(cutStream, note);
  }
  keptBytes = 0;
  cutBytes = 0;
  keptEndsMidLine = false;
}

/** From now on, writes to stdout and stderr go to `next` (a file's run), or straight out when null. */
export function captureOutput(next: Sink | null): void {
  if (!installed) {
    installed = true;
    for (const stream of ["stdout", "stderr"] as const) {
      const target = process[stream];
      const write = target.write.bind(target);
      target.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
        if (!sink) return write(chunk as string, encoding as BufferEncoding, callback as () => void);
        take(stream, chunk, encoding);
        const done = typeof encoding === "function" ? encoding : callback;
        if (typeof done === "function") process.nextTick(done as () => void);
        return true;
      }) as typeof target.write;
    }
  }
  if (next === null) endOutputOfTest();
  sink = next;
  keptBytes = 0;
  cutBytes = 0;
  keptEndsMidLine = false;
}
