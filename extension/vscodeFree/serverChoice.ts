// Which Turnlens the editor runs: the workspace's own installed package (node_modules/turnlens in
// the workspace folder itself, never a parent folder's, which may be another user's), when it speaks
// this extension's protocol and the workspace is trusted, else the copy the extension carries. No
// `vscode` import: unit-tested.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PACKAGE_SERVER_FIELD, PROTOCOL_VERSION, type PackageServerDeclaration } from "../../server/protocol.ts";

/** A `turnlens` package on disk. */
export interface TurnlensPackage {
  /** Its folder (symlinks resolved). */
  root: string;
  version: string;
  /** What its package.json declares under `turnlensServer`, when it is well formed. */
  server?: PackageServerDeclaration;
}

export interface ServerChoice {
  source: "workspace" | "bundled";
  /** The server entry to start (`…/dist/server.js`). */
  module: string;
  version: string;
  /** The package's folder. */
  root: string;
  /** Why the workspace's package is not the one in use, when it was found but passed over. */
  refusal?: string;
}

/** Reads a folder's package.json as a Turnlens package; undefined when there is none or it is unreadable. */
export function readTurnlensPackage(root: string): TurnlensPackage | undefined {
  let manifest: Record<string, unknown>;
  try {
    manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const version = typeof manifest.version === "string" ? manifest.version : "(no version)";
  const declared = manifest[PACKAGE_SERVER_FIELD] as Partial<PackageServerDeclaration> | undefined;
  const server =
    declared && typeof declared.protocol === "number" && typeof declared.main === "string" ? { protocol: declared.protocol, main: declared.main } : undefined;
  return { root: realpath(root), version, ...(server ? { server } : {}) };
}

/**
 * The folder's own `node_modules/turnlens` (a symlink there is followed: the link is the workspace's
 * own doing, as pnpm and npm workspaces make them). Never a parent folder's, as Node would find: a
 * folder above the workspace may be anyone's (a shared /tmp, a home another user can write), and its
 * package would run as the editor's user.
 */
export function findWorkspacePackage(folder: string): TurnlensPackage | undefined {
  const candidate = join(resolve(folder), "node_modules", "turnlens");
  return existsSync(join(candidate, "package.json")) ? readTurnlensPackage(candidate) : undefined;
}

/** The nearest `node_modules/turnlens` above the folder, which is never started: only named, so a monorepo's user knows why. */
function findParentPackage(folder: string): string | undefined {
  for (let dir = dirname(resolve(folder)); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "turnlens");
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

export interface ChoiceInput {
  /** The workspace folders, in order: the first with an installed `turnlens` is the one used. */
  folders: readonly string[];
  /** The extension's own package (its folder holds dist/server.js). */
  bundled: TurnlensPackage;
  /** An untrusted workspace's code never runs, its Turnlens included. */
  trusted: boolean;
}

/** The workspace's Turnlens when it can be used, else the bundled one, with the reason it was passed over. */
export function chooseServer({ folders, bundled, trusted }: ChoiceInput): ServerChoice {
  const bundledChoice = {
    source: "bundled",
    module: join(bundled.root, bundled.server?.main ?? "dist/server.js"),
    version: bundled.version,
    root: bundled.root,
  } as const;
  const found = folders.map(findWorkspacePackage).find((found) => found !== undefined);
  if (!found) {
    const above = folders.map(findParentPackage).find((above) => above !== undefined);
    if (!above || realpath(above) === bundled.root) return bundledChoice;
    return {
      ...bundledChoice,
      refusal: `the Turnlens in ${above}, a folder above the workspace, is not started: only a Turnlens installed in the workspace folder is (open the folder that holds it)`,
    };
  }
  if (found.root === bundled.root) return bundledChoice;
  const refusal = refusalOf(found, bundled, trusted);
  if (refusal) return { ...bundledChoice, refusal };
  return { source: "workspace", module: join(found.root, found.server!.main), version: found.version, root: found.root };
}

/** Why the workspace's package cannot be started; undefined when it can. */
function refusalOf(found: TurnlensPackage, bundled: TurnlensPackage, trusted: boolean): string | undefined {
  const theirs = `the workspace's Turnlens ${found.version} (${found.root})`;
  const ours = `this extension (Turnlens ${bundled.version}, protocol ${PROTOCOL_VERSION})`;
  if (!trusted) return `${theirs} is not started because the workspace is not trusted; trust it to use it`;
  if (!found.server)
    return `${theirs} is too old for ${ours}: its package.json declares no "${PACKAGE_SERVER_FIELD}" protocol; update it (npm install -D turnlens@latest)`;
  if (found.server.protocol < PROTOCOL_VERSION)
    return `${theirs} is too old for ${ours}: it speaks protocol ${found.server.protocol}; update it (npm install -D turnlens@latest)`;
  if (found.server.protocol > PROTOCOL_VERSION) return `${theirs} speaks protocol ${found.server.protocol}, newer than ${ours}; update the extension`;
  if (!existsSync(join(found.root, found.server.main))) return `${theirs} has no ${found.server.main} (is it built?)`;
  return undefined;
}

/** The line the output channel gets when the server starts. */
export function describeChoice(choice: ServerChoice): string {
  const which = choice.source === "workspace" ? `the workspace's Turnlens ${choice.version}` : `the bundled Turnlens ${choice.version}`;
  const why = choice.refusal ?? (choice.source === "bundled" ? "the workspace has no node_modules/turnlens" : undefined);
  return `using ${which} (${choice.module})${why ? `: ${why}` : ""}`;
}

function realpath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
