// Where a pane agent's pane goes: its `layout` (a tab, or a split beside another agent) and
// `keepPane` checked, placed against the run's panes setting, falling back to a tab, never failing.

import { refuseUnknownOptions } from "./unknownOptions.ts";
import type { PanePlacement } from "./host.ts";
import type { Execution, KeepPane, PaneLayout, PanesSetting, PaneWorkspace } from "./types.ts";

function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

const KEEP: readonly KeepPane[] = ["never", "on-failure", "always"];
const SIDES = ["right", "below"] as const;

export interface PanePlan {
  pane?: PanePlacement;
  panes?: { workspace: PaneWorkspace; keep: KeepPane };
  paneFallback?: string;
}

/** What a split may go beside: the other agent's workspace, or why it has no pane to split. */
export type BesideLookup = (key: string) => { workspace: PaneWorkspace } | { why: string };

const isWorkspace = (value: unknown): value is PaneWorkspace =>
  value === "run" ||
  value === "origin" ||
  (typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as { name?: unknown }).name === "string");

/** Throws the TypeError a malformed `layout`, `keepPane` or run `panes` setting deserves. */
export function checkLayout(key: string, layout: unknown, keepPane: unknown): void {
  if (keepPane !== undefined && !KEEP.includes(keepPane as KeepPane)) {
    throw new TypeError(`agent "${key}": keepPane is "never", "on-failure" or "always", not ${describeValue(keepPane)}`);
  }
  if (layout === undefined) return;
  const shape = `layout is a tab { session?, workspace?, tab? } or a split { beside, side, share? }, not ${describeValue(layout)}`;
  if (typeof layout !== "object" || layout === null || Array.isArray(layout)) throw new TypeError(`agent "${key}": ${shape}`);
  const fields = layout as Record<string, unknown>;
  refuseUnknownOptions(`agent "${key}": layout`, fields, "beside" in fields ? ["beside", "side", "share"] : ["session", "workspace", "tab"]);
  if ("beside" in fields) {
    const extra = Object.keys(fields).filter((name) => !["beside", "side", "share"].includes(name));
    if (typeof fields.beside !== "string" || !SIDES.includes(fields.side as "right") || extra.length) {
      throw new TypeError(`agent "${key}": ${shape}`);
    }
    if (fields.share !== undefined && (typeof fields.share !== "number" || !(fields.share > 0 && fields.share < 1))) {
      throw new TypeError(`agent "${key}": a split's share is a fraction between 0 and 1, not ${describeValue(fields.share)}`);
    }
    return;
  }
  const extra = Object.keys(fields).filter((name) => !["session", "workspace", "tab"].includes(name));
  const badText = ["session", "tab"].some((name) => fields[name] !== undefined && typeof fields[name] !== "string");
  if (extra.length || badText || (fields.workspace !== undefined && !isWorkspace(fields.workspace))) {
    throw new TypeError(`agent "${key}": ${shape}`);
  }
}

/** Throws the TypeError a malformed run `panes` setting deserves. */
export function checkPanesSetting(panes: PanesSetting | undefined): void {
  if (panes === undefined) return;
  if (panes.workspace !== undefined && !isWorkspace(panes.workspace)) {
    throw new TypeError(`panes.workspace is "run", "origin" or { name }, not ${describeValue(panes.workspace)}`);
  }
  if (panes.keep !== undefined && !KEEP.includes(panes.keep)) {
    throw new TypeError(`panes.keep is "never", "on-failure" or "always", not ${describeValue(panes.keep)}`);
  }
}

/**
 * Places a pane agent's pane. A headless agent has none, and refuses a layout. `front` is true for
 * the first pane the run opens, the one its workspace shows; later panes open behind it.
 */
export function placePane(
  key: string,
  spec: { layout?: PaneLayout; keepPane?: KeepPane },
  execution: Execution,
  run: PanesSetting,
  beside: BesideLookup,
  first: boolean,
): PanePlan {
  if (execution.placement !== "pane") {
    if (spec.layout !== undefined || spec.keepPane !== undefined) {
      throw new Error(`agent "${key}" runs headless; layout and keepPane place a pane`);
    }
    return {};
  }
  const keep = spec.keepPane ?? run.keep ?? "never";
  const runWorkspace = run.workspace ?? "run";
  const layout = spec.layout;
  if (layout && "beside" in layout) {
    const found = beside(layout.beside);
    if ("workspace" in found) {
      return {
        pane: { beside: layout.beside, side: layout.side, ...(layout.share !== undefined ? { share: layout.share } : {}), front: first },
        panes: { workspace: found.workspace, keep },
      };
    }
    return {
      pane: { tab: key, front: first },
      panes: { workspace: runWorkspace, keep },
      paneFallback: `${found.why}, so its pane opened in a tab`,
    };
  }
  return {
    pane: { tab: layout?.tab ?? key, ...(layout?.session !== undefined ? { session: layout.session } : {}), front: first },
    panes: { workspace: layout?.workspace ?? runWorkspace, keep },
  };
}

/** Whether a pane kept `keep` stays once the attempt ended this way: `on-failure` keeps it unless it completed or parked. */
export function keepsPane(keep: KeepPane, endingKind: string): boolean {
  return keep === "always" || (keep === "on-failure" && endingKind !== "completed" && endingKind !== "parked");
}
