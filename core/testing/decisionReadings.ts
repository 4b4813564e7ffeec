// What each question of a scripted decision came to, as the editor shows it beside the script:
// the option, level or yes/no the workflow got, with its probability (`payments (0.95)`).

import { toAnswer } from "../workflow/decisions.ts";
import type { QuestionDistribution } from "../workflow/host.ts";
import type { ChoiceAnswer, Question, ScoreAnswer, YesNoAnswer } from "../workflow/types.ts";

export interface DecisionReading {
  answer: string;
  probability: number;
}

/** Per question id, the answer the engine derives from the script's distributions (the same `toAnswer`). */
export function decisionReadings(questions: Record<string, Question>, distributions: Record<string, QuestionDistribution>): Record<string, DecisionReading> {
  const readings: Record<string, DecisionReading> = {};
  for (const [id, question] of Object.entries(questions)) {
    const given = distributions[id];
    if (given === undefined) continue;
    const answer = toAnswer(question, given);
    if (question.kind === "choice") {
      const { choice, probabilities } = answer as ChoiceAnswer;
      readings[id] = { answer: choice, probability: probabilities[choice] ?? 0 };
    } else if (question.kind === "score") {
      const { level, probabilities } = answer as ScoreAnswer;
      readings[id] = { answer: question.levels[level] ?? String(level), probability: probabilities[level] ?? 0 };
    } else {
      const { yes, probability } = answer as YesNoAnswer;
      readings[id] = { answer: yes ? "yes" : "no", probability: yes ? probability : 1 - probability };
    }
  }
  return readings;
}
