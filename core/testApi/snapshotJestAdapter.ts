// TEMPORARY ADAPTER, removed when `expect` becomes @vitest/expect + chai (snapshotMatchers.ts is the
// chai plugin then): the snapshot matchers on today's jest `expect`, through `expect.extend`, over
// the same core functions (snapshots.ts).
import type { Expect, MatcherContext } from "expect";
import { inspect } from "node:util";
import {
  addSnapshotSerializer,
  matchFileSnapshot,
  matchSnapshot,
  mismatchMessage,
  setSnapshotEquality,
  thrownBy,
  type SnapshotKind,
  type SnapshotMatch,
} from "./snapshots.ts";

declare module "expect" {
  interface Matchers<R extends void | Promise<void>, T = unknown> {
    toMatchSnapshot(propertiesOrHint?: object | string, hint?: string): R;
    toMatchInlineSnapshot(propertiesOrInlineSnapshot?: object | string, inlineSnapshotOrHint?: string, hint?: string): R;
    toThrowErrorMatchingSnapshot(hint?: string): R;
    toThrowErrorMatchingInlineSnapshot(inlineSnapshotOrHint?: string, hint?: string): R;
    toMatchFileSnapshot(file: string, hint?: string): Promise<void>;
  }
  interface BaseExpect {
    addSnapshotSerializer(serializer: import("@vitest/pretty-format").Plugin): void;
  }
}

type Result = { pass: boolean; message: () => string; actual?: unknown; expected?: unknown };

function notAllowed(context: MatcherContext, kind: SnapshotKind): void {
  if (context.isNot) throw new Error(`${kind} cannot be used with "not"`);
}

/** jest's equality with Vitest's testers for `properties`: iterable and subset equality. */
function useEquality(context: MatcherContext): void {
  const utils = context.utils as unknown as { iterableEquality: never; subsetEquality: never };
  setSnapshotEquality((received, properties) => context.equals(received, properties, [utils.iterableEquality, utils.subsetEquality]));
}

/**
 * A snapshot's text as the report shows it: the runner prints a matcher's expected and actual with
 * `inspect`, which would quote a string and escape its lines; the editor's diff wants the text.
 */
class SnapshotText {
  constructor(readonly text: string) {}
  [inspect.custom](): string {
    return this.text;
  }
}

function asResult(result: SnapshotMatch): Result {
  if (result.pass) return { pass: true, message: () => "" };
  const shown = (value: unknown) => (typeof value === "string" ? new SnapshotText(value) : value);
  return { pass: false, message: () => mismatchMessage(result), actual: shown(result.actual), expected: shown(result.expected) };
}

function objectOrHint(propertiesOrHint: unknown, hint: unknown): { properties?: object; hint?: string } {
  if (typeof propertiesOrHint === "string") return { hint: propertiesOrHint };
  return { ...(propertiesOrHint === undefined ? {} : { properties: propertiesOrHint as object }), ...(typeof hint === "string" ? { hint } : {}) };
}

function inlineArguments(propertiesOrInline: unknown, inlineOrHint: unknown, hint: unknown): { properties?: object; inlineSnapshot?: string; hint?: string } {
  if (typeof propertiesOrInline === "string") return { inlineSnapshot: propertiesOrInline, ...(typeof inlineOrHint === "string" ? { hint: inlineOrHint } : {}) };
  return {
    ...(propertiesOrInline === undefined ? {} : { properties: propertiesOrInline as object }),
    ...(typeof inlineOrHint === "string" ? { inlineSnapshot: inlineOrHint } : {}),
    ...(typeof hint === "string" ? { hint } : {}),
  };
}

const matchers = {
  toMatchSnapshot(this: MatcherContext, received: unknown, propertiesOrHint?: unknown, hint?: unknown): Result {
    notAllowed(this, "toMatchSnapshot");
    useEquality(this);
    return asResult(matchSnapshot({ kind: "toMatchSnapshot", received, ...objectOrHint(propertiesOrHint, hint) }));
  },
  toMatchInlineSnapshot(this: MatcherContext, received: unknown, propertiesOrInline?: unknown, inlineOrHint?: unknown, hint?: unknown): Result {
    notAllowed(this, "toMatchInlineSnapshot");
    useEquality(this);
    return asResult(matchSnapshot({ kind: "toMatchInlineSnapshot", received, ...inlineArguments(propertiesOrInline, inlineOrHint, hint) }));
  },
  toThrowErrorMatchingSnapshot(this: MatcherContext, received: unknown, hint?: unknown): Result {
    notAllowed(this, "toThrowErrorMatchingSnapshot");
    const thrown = thrownBy(received, this.promise);
    return asResult(matchSnapshot({ kind: "toThrowErrorMatchingSnapshot", received: thrown, ...objectOrHint(hint, undefined) }));
  },
  toThrowErrorMatchingInlineSnapshot(this: MatcherContext, received: unknown, inlineOrHint?: unknown, hint?: unknown): Result {
    notAllowed(this, "toThrowErrorMatchingInlineSnapshot");
    const thrown = thrownBy(received, this.promise);
    return asResult(matchSnapshot({ kind: "toThrowErrorMatchingInlineSnapshot", received: thrown, ...inlineArguments(undefined, inlineOrHint, hint) }));
  },
  async toMatchFileSnapshot(this: MatcherContext, received: unknown, file: string, hint?: unknown): Promise<Result> {
    notAllowed(this, "toMatchFileSnapshot");
    return asResult(await matchFileSnapshot({ kind: "toMatchFileSnapshot", received, ...objectOrHint(hint, undefined) }, file));
  },
};

/** Adds the snapshot matchers and `expect.addSnapshotSerializer` to jest's `expect`. */
export function addSnapshotMatchers(expect: Expect): void {
  expect.extend(matchers as unknown as Parameters<Expect["extend"]>[0]);
  Object.assign(expect, { addSnapshotSerializer });
}
