// What `turnlens --version` prints, and what a blob report records of the turnlens that wrote it:
// a file of its own, since the reporters need it and usage.ts needs the reporters.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { turnlensRoot } from "../execution/paths.ts";

/**
 * `turnlens --version` (`-v`, also after `test`): `turnlens/0.1.0 linux-x64 node-v22.12.0`, in
 * Vitest's form (`vitest/4.1.0 linux-x64 node-v22.12.0`), read from the installed package.json.
 */
export function versionLine(): string {
  const { version } = JSON.parse(readFileSync(join(turnlensRoot(), "package.json"), "utf8")) as { version: string };
  return `turnlens/${version} ${process.platform}-${process.arch} node-${process.version}`;
}
