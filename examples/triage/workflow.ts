// Decisions triage: each ticket gets one wf.decide with three questions (which team, is it a
// bug, how urgent). A team the model is unsure of, or a decision that fails, goes to the desk.

import { choice, DecisionError, defineWorkflow, score, yesNo } from "agentswf/workflow";

export const URGENCY = ["low", "medium", "high"] as const;
export const QUESTIONS = {
  team: choice("Which team owns this ticket?", {
    payments: "billing, refunds and invoices",
    accounts: "sign-in, profiles and email",
    frontend: null,
  }),
  bug: yesNo("Is this a bug?", "Something that used to work no longer does."),
  urgency: score("How urgent is it?", URGENCY),
};
/** Below this probability for its team, a ticket goes to a person. */
export const SURE = 0.8;

export default defineWorkflow({
  name: "triage",
  description: "Route each ticket to a team, say whether it is a bug, and how urgent it is.",
  prepare: ({ argv }) => ({ tickets: argv }),
  async run(wf, { tickets }) {
    const routed = (title: string, team: string, fields: { bug?: boolean; urgency?: string; why?: string } = {}) => ({ title, team, ...fields });
    return wf.parallel(
      tickets,
      async (title, index) => {
        const key = `triage-${index + 1}`;
        try {
          const { answers } = await wf.decide({ key, questions: QUESTIONS, state: { title } });
          const { choice: team, probabilities } = answers.team;
          const fields = { bug: answers.bug.yes, urgency: URGENCY[answers.urgency.level] };
          const sureness = probabilities[team] ?? 0;
          if (sureness < SURE) return routed(title, "desk", { ...fields, why: `${team} at ${sureness}` });
          return routed(title, team, fields);
        } catch (error) {
          // An Error from the provider rejects decide; the other tickets go on.
          if (!(error instanceof DecisionError)) throw error;
          return routed(title, "desk", { why: error.message });
        }
      },
      { concurrency: 2 },
    );
  },
});
