// The snapshot matchers as a chai plugin, as Vitest's `SnapshotPlugin` adds them (vitest's
// integrations/snapshot/chai.ts): toMatchSnapshot, toMatchInlineSnapshot, toThrowErrorMatching(Inline)Snapshot,
// toMatchFileSnapshot and `expect.addSnapshotSerializer`, over the core functions of snapshots.ts.
import { addSnapshotSerializer, matchFileSnapshot, matchSnapshot, thrownBy, type SnapshotKind, type SnapshotMatch } from "./snapshots.ts";

declare module "@vitest/expect" {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration merges with @vitest/expect's own `Matchers<T = any>`
  interface Matchers<T = any> {
    toMatchSnapshot(propertiesOrHint?: object | string, hint?: string): void;
    toMatchInlineSnapshot(propertiesOrInlineSnapshot?: object | string, inlineSnapshotOrHint?: string, hint?: string): void;
    toThrowErrorMatchingSnapshot(hint?: string): void;
    toThrowErrorMatchingInlineSnapshot(inlineSnapshotOrHint?: string, hint?: string): void;
    toMatchFileSnapshot(file: string, hint?: string): Promise<void>;
  }
  interface ExpectStatic {
    addSnapshotSerializer(serializer: import("@vitest/pretty-format").Plugin): void;
  }
}

/** What the plugin reads of chai: kept structural, so any chai 5/6 (and @vitest/expect's) fits. */
export interface ChaiLike {
  Assertion: { prototype: object };
  expect: object;
}
export interface ChaiUtilsLike {
  flag(assertion: object, name: string, value?: unknown): unknown;
  addMethod(target: object, name: string, method: (this: object, ...args: never[]) => unknown): void;
}

/** An assertion's name set as @vitest/expect's `wrapAssertion` sets it, for the messages that name it. */
function named<A extends unknown[]>(utils: ChaiUtilsLike, name: SnapshotKind, fn: (this: object, ...args: A) => unknown) {
  return function (this: object, ...args: A): unknown {
    utils.flag(this, "_name", name);
    return fn.apply(this, args);
  };
}

/** What a snapshot match reads of the assertion besides its value: its test and `.resolves`/`.rejects`' call error. */
function bound(utils: ChaiUtilsLike, assertion: object): { task?: unknown; callError?: Error } {
  const task = utils.flag(assertion, "vitest-test");
  const callError = utils.flag(assertion, "error");
  return { ...(task === undefined ? {} : { task }), ...(callError instanceof Error ? { callError } : {}) };
}

function refuseNot(utils: ChaiUtilsLike, assertion: object, name: SnapshotKind): void {
  if (utils.flag(assertion, "negate")) throw new Error(`${name} cannot be used with "not"`);
}

/** Vitest's assertMatchResult: a mismatch throws with the snapshots as `expected` and `actual`. */
function assertMatchResult(result: SnapshotMatch, customMessage: unknown): void {
  if (result.pass) return;
  const message = (typeof customMessage === "string" && customMessage ? `${customMessage}: ` : "") + result.message();
  throw Object.assign(new Error(message), { actual: result.actual, expected: result.expected, diffOptions: { expand: false } });
}

function normalizeArguments(propertiesOrHint: unknown, hint: unknown): { properties?: object; hint?: string } {
  if (typeof propertiesOrHint === "string") return { hint: propertiesOrHint };
  return { ...(propertiesOrHint === undefined ? {} : { properties: propertiesOrHint as object }), ...(typeof hint === "string" ? { hint } : {}) };
}

function normalizeInlineArguments(propertiesOrInline: unknown, inlineOrHint: unknown, hint: unknown): { properties?: object; inlineSnapshot?: string; hint?: string } {
  if (typeof propertiesOrInline === "string") return { inlineSnapshot: propertiesOrInline, ...(typeof inlineOrHint === "string" ? { hint: inlineOrHint } : {}) };
  return {
    ...(propertiesOrInline === undefined ? {} : { properties: propertiesOrInline as object }),
    ...(typeof inlineOrHint === "string" ? { inlineSnapshot: inlineOrHint } : {}),
    ...(typeof hint === "string" ? { hint } : {}),
  };
}

/** `chai.use(SnapshotPlugin)`. */
export const SnapshotPlugin = (chai: ChaiLike, utils: ChaiUtilsLike): void => {
  const proto = chai.Assertion.prototype;
  for (const key of ["matchSnapshot", "toMatchSnapshot"]) {
    utils.addMethod(
      proto,
      key,
      named(utils, "toMatchSnapshot", function (this: object, propertiesOrHint?: unknown, hint?: unknown) {
        refuseNot(utils, this, "toMatchSnapshot");
        const received = utils.flag(this, "object");
        assertMatchResult(
          matchSnapshot({ kind: "toMatchSnapshot", received, ...normalizeArguments(propertiesOrHint, hint), ...bound(utils, this) }),
          utils.flag(this, "message"),
        );
      }),
    );
  }
  utils.addMethod(proto, "toMatchFileSnapshot", function (this: object, file: string, hint?: string) {
    utils.flag(this, "_name", "toMatchFileSnapshot");
    refuseNot(utils, this, "toMatchFileSnapshot");
    const received = utils.flag(this, "object");
    const message = utils.flag(this, "message");
    // The stack at the call: a mismatch found after the file is read is placed at the matcher (as
    // Vitest's recordAsyncExpect does), not at the `await` the test resumes from.
    const atCall = new Error("toMatchFileSnapshot");
    return matchFileSnapshot({ kind: "toMatchFileSnapshot", received, ...normalizeArguments(hint, undefined), ...bound(utils, this) }, file).then((result) => {
      try {
        assertMatchResult(result, message);
      } catch (error) {
        const frames = (atCall.stack ?? "").split("\n").slice(1).join("\n");
        if (error instanceof Error && frames) error.stack = `Error: ${error.message}\n${frames}`;
        throw error;
      }
    });
  });
  utils.addMethod(
    proto,
    "toMatchInlineSnapshot",
    named(utils, "toMatchInlineSnapshot", function (this: object, propertiesOrInline?: unknown, inlineOrHint?: unknown, hint?: unknown) {
      refuseNot(utils, this, "toMatchInlineSnapshot");
      const received = utils.flag(this, "object");
      const call = { kind: "toMatchInlineSnapshot" as const, received, ...normalizeInlineArguments(propertiesOrInline, inlineOrHint, hint), ...bound(utils, this) };
      assertMatchResult(matchSnapshot(call), utils.flag(this, "message"));
    }),
  );
  utils.addMethod(
    proto,
    "toThrowErrorMatchingSnapshot",
    named(utils, "toThrowErrorMatchingSnapshot", function (this: object, propertiesOrHint?: unknown, hint?: unknown) {
      refuseNot(utils, this, "toThrowErrorMatchingSnapshot");
      const received = thrownBy(utils.flag(this, "object"), utils.flag(this, "promise") as string | undefined);
      assertMatchResult(
        matchSnapshot({ kind: "toThrowErrorMatchingSnapshot", received, ...normalizeArguments(propertiesOrHint, hint), ...bound(utils, this) }),
        utils.flag(this, "message"),
      );
    }),
  );
  utils.addMethod(
    proto,
    "toThrowErrorMatchingInlineSnapshot",
    named(utils, "toThrowErrorMatchingInlineSnapshot", function (this: object, inlineOrHint?: unknown, hint?: unknown) {
      refuseNot(utils, this, "toThrowErrorMatchingInlineSnapshot");
      const received = thrownBy(utils.flag(this, "object"), utils.flag(this, "promise") as string | undefined);
      const call = { kind: "toThrowErrorMatchingInlineSnapshot" as const, received, ...normalizeInlineArguments(undefined, inlineOrHint, hint), ...bound(utils, this) };
      assertMatchResult(matchSnapshot(call), utils.flag(this, "message"));
    }),
  );
  utils.addMethod(chai.expect, "addSnapshotSerializer", addSnapshotSerializer as never);
};
