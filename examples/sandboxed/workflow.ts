// Upgrading a dependency in sandboxes: a researcher reads the repo and the package's pages in a
// shared sandbox that writes nothing; a headless upgrader writes only the manifest, the lockfile
// and the source in a sandbox of its own. Each reaches the domains it is given and its model's API.

import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const NOTES = Type.Object({ breaking: Type.Array(Type.String()) });
export const UPGRADE = Type.Object({ branch: Type.String(), tests: Type.Union([Type.Literal("pass"), Type.Literal("fail")]) });

export default defineWorkflow({
  name: "sandboxed",
  description: "Upgrade one dependency: find what breaks, read-only, then apply it where only the manifest and the source can change.",
  prepare: ({ argv }) => ({ dependency: argv[0] ?? "typebox" }),
  async run(wf, { dependency }) {
    // Shared: whoever researches reads the repo and the package's pages, and writes nothing.
    const research = await wf.sandboxes.open({ key: "research", read: ["."], network: ["github.com", "registry.npmjs.org"] });
    const researcher = await wf.agents.open({ key: "researcher", runtime: "claude", sandbox: research });
    const notes = await researcher.run({ prompt: `What breaks when ${dependency} moves to its latest major?`, schema: NOTES });
    if (notes.outcome.kind !== "answered") return { dependency, upgraded: false, why: `no notes (${notes.outcome.kind})` };

    // Its own (the private sandbox "agent:upgrader"): it writes what an upgrade changes, and reaches the registry only.
    const upgrader = await wf.agents.open({
      key: "upgrader",
      runtime: { alias: "codex", placement: "headless" },
      sandbox: { read: ["."], write: ["package.json", "package-lock.json", "src"], network: ["registry.npmjs.org"] },
    });
    // It may tell the researcher what the notes missed; headless codex cannot wait for an answer.
    await wf.messages.allow({ from: "upgrader", to: "researcher", purpose: "what the upgrade found that the notes missed" });
    const breaking = notes.outcome.value.breaking;
    const upgrade = await upgrader.run({ prompt: `Upgrade ${dependency}. Mind: ${breaking.join("; ") || "nothing, say the notes"}.`, schema: UPGRADE });
    if (upgrade.outcome.kind !== "answered") return { dependency, upgraded: false, why: `no upgrade (${upgrade.outcome.kind})` };
    const { branch, tests } = upgrade.outcome.value;
    return { dependency, upgraded: tests === "pass", branch, why: tests === "pass" ? "the tests pass" : "the tests fail on the new version" };
  },
});
