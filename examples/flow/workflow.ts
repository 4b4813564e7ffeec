// A three-stage delivery: a reviewer settles which doc to build, an implementer builds it (and
// compacts its session half way), and a worker checks a preview. Its stages are declared, so a run
// started at one of them can say which values it needs.

import { defineWorkflow, Type } from "agentswf/workflow";

export const DOC = Type.Object({ path: Type.String() });
export const BRANCH = Type.Object({ branch: Type.String() });
export const QA = Type.Object({ preview: Type.String() });

export default defineWorkflow({
  name: "flow",
  description: "Review a doc, implement it on a branch, and check a preview of the branch.",
  stages: { "doc-review": DOC, implement: BRANCH, qa: QA },
  async run(wf) {
    const doc = await wf.stage("doc-review", { result: DOC, summary: (doc) => doc.path }, async () => {
      const reviewer = await wf.agents.open({ key: "reviewer", runtime: "claude" });
      const { outcome } = await reviewer.run({ prompt: "Review the docs under docs/ and answer with the one ready to build.", schema: DOC });
      if (outcome.kind !== "answered") return wf.stop(`no doc to build: ${outcome.reason}`);
      return outcome.value;
    });
    // Between stages: this runs on every attempt, a continue's included.
    wf.log(`building ${doc.path}`);
    const built = await wf.stage("implement", { result: BRANCH, summary: (built) => built.branch }, async () => {
      const implementer = await wf.agents.open({ key: "implementer", runtime: "claude" });
      await implementer.run({ prompt: `Implement ${doc.path}.` });
      // A long implementation: keep the session small before it names the branch.
      await implementer.compact({ prompt: "Keep the branch, the files changed and what is left to do." });
      const { outcome } = await implementer.run({ prompt: "Push your work and answer with the branch.", schema: BRANCH });
      if (outcome.kind !== "answered") return wf.stop(`no branch: ${outcome.reason}`);
      return outcome.value;
    });
    const qa = await wf.stage("qa", { result: QA, summary: (qa) => qa.preview }, async () => {
      const worker = await wf.agents.open({ key: "worker", runtime: "claude" });
      const { outcome } = await worker.run({ prompt: `Deploy a preview of ${built.branch} and check it against ${doc.path}.`, schema: QA });
      if (outcome.kind !== "answered") return wf.stop(`no preview: ${outcome.reason}`);
      return outcome.value;
    });
    return { doc: doc.path, branch: built.branch, preview: qa.preview };
  },
});
