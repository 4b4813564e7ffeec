// An agent's skills: each `{ path }` (a folder, or a file: URL, holding SKILL.md) or `{ repo,
// skill, ref? }`, checked at open and read as the names a run records, as upstream records them.

import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Skill } from "./types.ts";
import { refuseUnknownOptions } from "./unknownOptions.ts";

const shown = (value: unknown) => (value === undefined ? "undefined" : JSON.stringify(value));

/** The `name` in a SKILL.md's front matter (`---` … `name: probe-a` … `---`), if it has one. */
export function skillNameOf(markdown: string): string | undefined {
  const front = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(markdown);
  const line = front ? /^name:[ \t]*(.*?)[ \t]*$/m.exec(front[1]!) : null;
  const name = line?.[1]?.replace(/^(["'])(.*)\1$/, "$2").trim();
  return name ? name : undefined;
}

/** Checks `skills` as `wf.agents.open` is given them and returns their names; throws a TypeError naming what is wrong. */
export function skillNames(agent: string, skills: unknown, cwd: string): string[] {
  if (!Array.isArray(skills)) throw new TypeError(`agent "${agent}": skills is a list of { path } or { repo, skill, ref? }, not ${shown(skills)}`);
  return skills.map((skill: unknown, index) => {
    const where = `agent "${agent}": skills[${index}]`;
    if (typeof skill !== "object" || skill === null || Array.isArray(skill)) {
      throw new TypeError(`${where} is { path } or { repo, skill, ref? }, not ${shown(skill)}`);
    }
    if ("path" in skill) {
      refuseUnknownOptions(where, skill, ["path"]);
      const path = (skill as { path: unknown }).path;
      if (typeof path !== "string" || path === "") throw new TypeError(`${where}'s path is a skill folder's path or a file: URL, not ${shown(path)}`);
      const folder = path.startsWith("file:") ? fileURLToPath(path) : isAbsolute(path) ? path : resolve(cwd, path);
      let markdown: string;
      try {
        markdown = readFileSync(join(folder, "SKILL.md"), "utf8");
      } catch {
        throw new TypeError(`${where}: skill folder "${path}" has no SKILL.md (looked for ${join(folder, "SKILL.md")})`);
      }
      const name = skillNameOf(markdown);
      if (!name) throw new TypeError(`${where}: "${path}"'s SKILL.md has no name; its front matter names the skill, as "name: <skill>" between --- lines`);
      return name;
    }
    refuseUnknownOptions(where, skill, ["repo", "skill", "ref"]);
    const { repo, skill: name, ref } = skill as Partial<Record<"repo" | "skill" | "ref", unknown>>;
    if (typeof repo !== "string" || repo === "" || typeof name !== "string" || name === "" || (ref !== undefined && typeof ref !== "string")) {
      throw new TypeError(`${where} is { path } or { repo, skill, ref? } with text for each, not ${shown(skill)}`);
    }
    return name;
  });
}

export type { Skill };
