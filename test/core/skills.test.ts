// An agent's skills read as names, as upstream records them: a `{ path }` skill's from the `name`
// in its SKILL.md, a `{ repo, skill }` skill's its `skill`; a skill that can't be read is refused.

import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, type Skill } from "agentswf/workflow";

/** Opens "a" with `skills` and asks it one turn; returns what open threw, if it did. */
function opening(skills: unknown) {
  return defineWorkflow({
    name: "skilled",
    description: "Opens an agent with skills.",
    async run(wf) {
      try {
        const a = await wf.agents.open({ key: "a", runtime: "claude", skills: skills as Skill[] });
        await a.run({ prompt: "Go." });
        return "opened";
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    },
  });
}

function skillFolder(name: string, markdown: string): string {
  const folder = join(mkdtempSync(join(tmpdir(), "turnlens-skill-")), name);
  mkdirSync(folder);
  writeFileSync(join(folder, "SKILL.md"), markdown);
  return folder;
}

describe("run.agentOf(key).skills", () => {
  test("holds each skill's name: a path's from its SKILL.md, a repo skill's its skill", async () => {
    const probe = skillFolder("probe-a", "---\nname: probe-a\ndescription: Probes.\n---\n# Probe\n");
    const quoted = skillFolder("folder-name", `---\ndescription: Quoted.\nname: "release-notes"\n---\n`);
    const run = await testWorkflow(opening([{ path: probe }, { path: pathToFileURL(quoted).href }, { repo: "acme/skills", skill: "triage", ref: "v2" }]), {
      agents: { a: answer("done") },
    });
    expect(run.value).toBe("opened");
    expect(run.agentOf("a").skills).toEqual(["probe-a", "release-notes", "triage"]);
  });

  test("reads a relative path from the agent's cwd, as files lays it out", async () => {
    const run = await testWorkflow(opening([{ path: "skills/style" }]), {
      agents: { a: answer("done") },
      files: { skills: { style: { "SKILL.md": "---\nname: house-style\n---\n" } } },
    });
    expect(run.agentOf("a").skills).toEqual(["house-style"]);
  });
});

describe("a skill that can't be read as a name is refused at open", () => {
  const nameless = skillFolder("nameless", "---\ndescription: No name here.\n---\n");
  const cases: Array<[string, unknown, string]> = [
    ["a path that is not a string", [{ path: 5 }], `agent "a": skills[0]'s path is a skill folder's path or a file: URL, not 5`],
    ["a folder without SKILL.md", [{ path: "nowhere" }], `agent "a": skills[0]: skill folder "nowhere" has no SKILL.md (looked for `],
    [
      "a SKILL.md without a name",
      [{ path: nameless }],
      `agent "a": skills[0]: "${nameless}"'s SKILL.md has no name; its front matter names the skill, as "name: <skill>" between --- lines`,
    ],
    ["a skill that is a bare name", ["probe-a"], `agent "a": skills[0] is { path } or { repo, skill, ref? }, not "probe-a"`],
    [
      "a repo skill without its skill",
      [{ repo: "acme/skills" }],
      `agent "a": skills[0] is { path } or { repo, skill, ref? } with text for each, not {"repo":"acme/skills"}`,
    ],
    ["a misspelt field", [{ repo: "acme/skills", skil: "triage" }], `agent "a": skills[0] takes no option "skil"; did you mean "skill"?`],
    ["skills that are no list", { path: nameless }, `wf.agents.open's "skills" must be a list of { path } or { repo, skill, ref? }, not {"path":"${nameless}"}`],
  ];
  for (const [what, skills, message] of cases) {
    test(what, async () => {
      const run = await testWorkflow(opening(skills), { agents: { a: answer("done") } });
      expect(run.value).toStartWith(`TypeError: ${message}`);
      expect(run.agents).toEqual([]);
    });
  }
});
