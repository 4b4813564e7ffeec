// Whether a test file's code opened a connection or sent a datagram while it ran (TCP, TLS, a Unix
// socket, UDP; fetch and http come down to the first). `--cache` never stores such a file's
// result: what a server answers is no byte the runner can key (docs/ci.md).
import { createRequire } from "node:module";
import { shapedLike } from "./shapedLike.ts";

let recording: { used: boolean } | null = null;
let installed = false;

/** Replaces the prototype methods every connection and datagram goes through, once, at the worker's start. */
export function installNetworkUse(): void {
  if (installed) return;
  installed = true;
  const require = createRequire(import.meta.url);
  const net = require("node:net") as { Socket: { prototype: Record<string, unknown> } };
  const dgram = require("node:dgram") as { Socket: { prototype: Record<string, unknown> } };
  const wrap = (prototype: Record<string, unknown>, name: string) => {
    const original = prototype[name];
    if (typeof original !== "function") return;
    prototype[name] = shapedLike(
      function (this: unknown, ...args: unknown[]) {
        if (recording) recording.used = true;
        return Reflect.apply(original, this, args);
      },
      original as (...args: never[]) => unknown,
    );
  };
  wrap(net.Socket.prototype, "connect");
  for (const name of ["bind", "connect", "send"]) wrap(dgram.Socket.prototype, name);
}

/** Starts watching a file's code for connections. */
export function beginNetworkUse(): void {
  recording = { used: false };
}

/** Stops watching; whether the file's code connected or sent anything. */
export function endNetworkUse(): boolean {
  const ended = recording;
  recording = null;
  return ended?.used ?? false;
}
