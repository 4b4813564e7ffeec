// A workflow that waits on time: it asks for a review, and while none comes it reminds the
// reviewer every two days, twice, before giving up. Its test runs on the virtual clock.
import { defineWorkflow, Type } from "agentswf/workflow";

export const REVIEWED = Type.Object({ verdict: Type.Union([Type.Literal("approved"), Type.Literal("changes")]) });

export default defineWorkflow({
  name: "reminder",
  description: "Requests a review and reminds the reviewer every two days until it comes, twice at most.",
  events: { reviewed: REVIEWED },
  async run(wf) {
    const author = await wf.agents.open({ key: "author", runtime: "claude" });
    await author.run({ prompt: "Open the pull request and request a review." });
    for (let reminders = 0; ; reminders++) {
      const review = await wf.events.wait("reviewed", { label: `waiting on the review (${reminders} reminders sent)`, until: "2d" });
      if (review.kind === "event") return { verdict: (review.data as { verdict: string }).verdict, reminders };
      if (reminders === 2) return { verdict: "none", reminders, gaveUpAt: wf.now().toISOString() };
      await author.run({ prompt: `Nobody reviewed in two days: post reminder ${reminders + 1} on the pull request.` });
    }
  },
});
