// `turnlens record --check`: where a replay of the recorded answers parts from the recorded run,
// turn by turn (Temporal's replay, for agent workflows): a changed prompt or schema, a turn no
// longer asked, a new turn, or a replay the test's own rules refused.
import { canonicalJson } from "../workflow/json.ts";
import type { RecordedRun } from "./recordedRun.ts";
import type { MetTurn, Replay } from "./recordReplay.ts";

/** Where the replay parts from the run: the turn, and what differs. */
export interface Parting {
  agent?: string;
  n?: number;
  nudge?: boolean;
  what: string;
}

/** A prompt's first line, cut at 80 characters, quoted. */
export function shortPrompt(prompt: string): string {
  const line = prompt.split("\n")[0]!;
  const cut = line.length > 80 ? `${line.slice(0, 79)}…` : line !== prompt ? `${line}…` : line;
  return JSON.stringify(cut);
}

export function turnName(agent: string, n: number, nudge = false): string {
  return `agent "${agent}" turn ${n}${nudge ? " (nudge)" : ""}`;
}

/** The problems that are about the turns themselves, said turn by turn; any other stops the replay where it is met. */
const TURN_PROBLEMS: ReadonlySet<string> = new Set(["list-exhausted", "agent-unscripted", "entry-never-reached", "list-never-asked", "schema-mismatch"]);

/** Every place the replay parts from the recorded run, in the recorded run's order; [] when they agree. */
export function partings(recorded: RecordedRun, replayed: Replay): Parting[] {
  const found: Parting[] = [];
  // A replay refused or failed for another cause meets no turn after it: that cause is the parting,
  // said below. Naming the turns it never reached "no longer asked" would blame the workflow.
  const stopped = replayed.error !== undefined || replayed.problems.some((problem) => !TURN_PROBLEMS.has(problem.code));
  const turnOf = new Map(recorded.turns.map((turn) => [`${turn.agent}#${turn.n}`, turn]));
  const wanted = new Map<string, MetTurn[]>();
  for (const operation of recorded.operations) {
    const turn = turnOf.get(`${operation.agent}#${operation.n}`)!;
    const schema = turn.schema === undefined ? undefined : canonicalJson(turn.schema);
    (wanted.get(operation.agent) ?? wanted.set(operation.agent, []).get(operation.agent)!).push({
      agent: operation.agent,
      n: operation.n,
      nudge: operation.nudge,
      prompt: turn.prompt ?? "",
      ...(schema !== undefined ? { schema } : {}),
    });
  }
  const met = new Map<string, MetTurn[]>();
  for (const turn of replayed.met) (met.get(turn.agent) ?? met.set(turn.agent, []).get(turn.agent)!).push(turn);
  const agents = [...new Set([...wanted.keys(), ...met.keys()])];
  for (const agent of agents) {
    const was = wanted.get(agent) ?? [];
    const now = met.get(agent) ?? [];
    for (let index = 0; index < Math.max(was.length, now.length); index++) {
      const before = was[index];
      const after = now[index];
      if (before && !after) {
        // A turn whose schema changed is refused before its script is met: the turn is there, its schema is not.
        const mismatch = replayed.problems.find((problem) => problem.code === "schema-mismatch" && problem.agent === agent && problem.turn === before.n);
        if (mismatch) {
          found.push({ agent, n: before.n, nudge: before.nudge, what: "the schema changed: the recorded answer's schema is not the one the turn asks for now" });
          break;
        }
        // A replay refused at a new turn meets nothing after it: that turn is the parting, said below.
        if (stopped || replayed.problems.some((problem) => problem.code === "list-exhausted" || problem.code === "agent-unscripted")) break;
        found.push({ agent, n: before.n, nudge: before.nudge, what: `is no longer asked (it was asked ${shortPrompt(before.prompt)})` });
        break;
      }
      if (!before && after) {
        found.push({ agent, n: after.n, nudge: after.nudge, what: `is new: asked ${shortPrompt(after.prompt)}` });
        break;
      }
      if (!before || !after) break;
      if (before.n !== after.n || before.nudge !== after.nudge) {
        found.push({ agent, n: before.n, nudge: before.nudge, what: `was followed by ${turnName(agent, after.n, after.nudge)} instead` });
        break;
      }
      if (!before.nudge && before.prompt !== after.prompt) {
        found.push({ agent, n: before.n, what: `the prompt changed: was ${shortPrompt(before.prompt)}, now ${shortPrompt(after.prompt)}` });
        break;
      }
      if (before.schema !== after.schema) {
        found.push({
          agent,
          n: before.n,
          nudge: before.nudge,
          what: `the schema changed: ${after.schema === undefined ? "it asks for text now" : before.schema === undefined ? "it asked for text" : "its answer's schema is another"}`,
        });
        break;
      }
    }
  }
  for (const problem of replayed.problems) {
    if ((problem.code === "list-exhausted" || problem.code === "agent-unscripted") && problem.agent !== undefined && problem.turn !== undefined) {
      found.push({ agent: problem.agent, n: problem.turn, nudge: problem.nudge ?? false, what: `is new: asked ${shortPrompt(problem.prompt ?? "")}` });
    } else if (problem.code === "entry-never-reached" || problem.code === "list-never-asked" || problem.code === "schema-mismatch") {
      // Said above from the turns themselves.
    } else {
      found.push({
        ...(problem.agent !== undefined ? { agent: problem.agent } : {}),
        ...(problem.turn !== undefined ? { n: problem.turn } : {}),
        what: `the replay was refused: ${problem.message}`,
      });
    }
  }
  if (replayed.error !== undefined) found.push({ what: `the replay failed: ${(replayed.error as Error)?.message ?? String(replayed.error)}` });
  return found;
}

/** A parting as one line: `agent "lead" turn 3 is new: asked "…"`. */
export function describeParting(parting: Parting): string {
  if (parting.agent === undefined || parting.n === undefined) return parting.what;
  const name = turnName(parting.agent, parting.n, parting.nudge);
  return parting.what.startsWith("is ") || parting.what.startsWith("was followed") ? `${name} ${parting.what}` : `${name}: ${parting.what}`;
}
