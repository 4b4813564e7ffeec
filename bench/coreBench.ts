// Turnlens's core benchmarks: testWorkflow's cost in a warm process for a one-turn test, 100- and
// 1,000-turn sequential workflows, a 50-agent wf.parallel fan-out, 1,000 virtual-clock timers and a
// 20-agent message ring. bench/run.mjs bundles and runs this file; it prints a table, issue 29's P1
// goal line, and writes bench/results.json (medians and p95, as the machine is shared).

import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { answer, testWorkflow } from "agentswf/testing";
import { defineWorkflow, Type, type AgentRef } from "agentswf/workflow";
import { Check } from "typebox/value";
import summarize, { SUMMARY } from "../examples/summarize/summarize.ts";

const STEP = Type.Object({ step: Type.Number() });
const DONE = Type.Object({ done: Type.Boolean() });
const SEQUENTIAL_TURNS = 100;
const LONG_SEQUENTIAL_TURNS = 1_000;
const FAN_OUT_AGENTS = 50;
const TIMERS = 1_000;
const RING_AGENTS = 20;

/** One agent, `turns` turns one after another. */
const sequentialOf = (turns: number) =>
  defineWorkflow({
    name: `bench-sequential-${turns}`,
    description: `One agent answers ${turns} turns in a loop.`,
    async run(wf) {
      const agent = await wf.agents.open({ key: "worker", runtime: "claude" });
      let answered = 0;
      for (let index = 0; index < turns; index++) {
        const { outcome } = await agent.run({ prompt: `Do step ${index}.`, schema: STEP });
        if (outcome.kind === "answered") answered++;
      }
      return { answered };
    },
  });
const sequential = sequentialOf(SEQUENTIAL_TURNS);
const longSequential = sequentialOf(LONG_SEQUENTIAL_TURNS);

/** 50 agents opened under wf.parallel, one turn each. */
const fanOut = defineWorkflow({
  name: "bench-fan-out",
  description: "50 agents at once, one turn each.",
  async run(wf) {
    const items = Array.from({ length: FAN_OUT_AGENTS }, (_, index) => index);
    const results = await wf.parallel(items, async (index) => {
      const agent = await wf.agents.open({ key: `worker-${index}`, runtime: "claude" });
      const { outcome } = await agent.run({ prompt: `Do part ${index}.`, schema: DONE });
      return outcome.kind === "answered" && outcome.value.done;
    });
    return { answered: results.filter(Boolean).length };
  },
});

/** 1,000 hourly timers one after another: each one the virtual clock jumps to once the run is idle. */
const timers = defineWorkflow({
  name: "bench-timers",
  description: "Sleeps an hour 1,000 times.",
  async run(wf) {
    const start = wf.now().getTime();
    for (let tick = 0; tick < TIMERS; tick++) await wf.sleep("1h", { label: `tick ${tick}` });
    return { hours: (wf.now().getTime() - start) / 3_600_000 };
  },
});

/** 1,000 timers set at once, a minute apart (1 to 1,000 minutes): the clock jumps 1,000 times with up to 1,000 waits pending. */
const timersAtOnce = defineWorkflow({
  name: "bench-timers-at-once",
  description: "Sleeps 1 to 1,000 minutes, all at once.",
  async run(wf) {
    const start = wf.now().getTime();
    await Promise.all(Array.from({ length: TIMERS }, (_, index) => wf.sleep(`${index + 1}m`, { label: `timer ${index}` })));
    return { minutes: (wf.now().getTime() - start) / 60_000 };
  },
});

const ringKey = (index: number) => `agent-${index}`;
/** The agent `agent-<i>` asks: the next one round the ring. */
const nextInRing = (key: string) => ringKey((Number(key.slice("agent-".length)) + 1) % RING_AGENTS);
/** What `agent-<j>` replies to `agent-<i>`, and so what `agent-<i>`'s turn answers. */
const ringReply = (from: string, to: string) => `${from} answers ${to}`;

/**
 * 20 agents in a ring, each allowed to message its neighbours; each asks the next one a question
 * and answers with the reply. A message to an agent in a turn waits for that turn to end, so a ring
 * whose every agent asked at once would wait on itself: the even agents ask first, then the odd.
 * The value counts the turns that answered with the right reply.
 */
const ring = defineWorkflow({
  name: "bench-ring",
  description: "20 agents in a ring; each asks the next one a question and waits for its reply.",
  async run(wf) {
    const indices = Array.from({ length: RING_AGENTS }, (_, index) => index);
    const agents: AgentRef[] = [];
    for (const index of indices) agents.push(await wf.agents.open({ key: ringKey(index), runtime: "claude" }));
    for (const index of indices) {
      await wf.messages.allow({ between: [ringKey(index), nextInRing(ringKey(index))], purpose: "the ring's questions" });
    }
    let replied = 0;
    for (const half of [0, 1]) {
      const askers = indices.filter((index) => index % 2 === half);
      const answers = await wf.parallel(askers, async (index) => {
        const peer = nextInRing(ringKey(index));
        const { outcome } = await agents[index]!.run({ prompt: `Ask ${peer} a question.` });
        return outcome.kind === "answered" && outcome.value === ringReply(peer, ringKey(index));
      });
      replied += answers.filter(Boolean).length;
    }
    return { replied };
  },
});

interface Case {
  name: string;
  description: string;
  /** What one test does many of, for a rate per second and a cost each: turns, timers, question-and-reply exchanges. */
  unit: "turn" | "timer" | "exchange";
  perTest: number;
  warmup: number;
  iterations: number;
  /** One testWorkflow call; throws if the run is not what the benchmark expects. */
  once: () => Promise<void>;
  /** Not one of the headline benchmarks: a variant that isolates a cost. */
  diagnostic?: boolean;
}

function expectValue(actual: unknown, expected: unknown, name: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${name}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

const sharedCwd = join(tmpdir(), "turnlens-bench-cwd");
mkdirSync(sharedCwd, { recursive: true });

const CASES: Case[] = [
  {
    name: "one-turn",
    description: "examples/summarize with answer(SUMMARY, {...}): one agent, one turn",
    unit: "turn",
    perTest: 1,
    warmup: 500,
    iterations: 3000,
    async once() {
      const run = await testWorkflow(summarize, {
        args: { file: "README.md" },
        agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) },
      });
      expectValue(run.value, { summary: "Two sentences." }, "one-turn");
    },
  },
  {
    name: "sequential-100",
    description: `one agent, ${SEQUENTIAL_TURNS} turns in a loop (maxTurns: 200)`,
    unit: "turn",
    perTest: SEQUENTIAL_TURNS,
    warmup: 30,
    iterations: 300,
    async once() {
      const run = await testWorkflow(sequential, {
        maxTurns: 200,
        agents: { worker: answer(STEP, { step: 1 }) },
      });
      expectValue(run.value, { answered: SEQUENTIAL_TURNS }, "sequential-100");
    },
  },
  {
    name: "sequential-1000",
    description: `one agent, ${LONG_SEQUENTIAL_TURNS} turns in a loop (maxTurns: ${LONG_SEQUENTIAL_TURNS})`,
    unit: "turn",
    perTest: LONG_SEQUENTIAL_TURNS,
    warmup: 10,
    iterations: 100,
    async once() {
      const run = await testWorkflow(longSequential, {
        maxTurns: LONG_SEQUENTIAL_TURNS,
        agents: { worker: answer(STEP, { step: 1 }) },
      });
      expectValue(run.value, { answered: LONG_SEQUENTIAL_TURNS }, "sequential-1000");
    },
  },
  {
    name: "fan-out-50",
    description: `wf.parallel over ${FAN_OUT_AGENTS} agents, one turn each, glob script "worker-*"`,
    unit: "turn",
    perTest: FAN_OUT_AGENTS,
    warmup: 30,
    iterations: 300,
    async once() {
      const run = await testWorkflow(fanOut, {
        maxTurns: 200,
        agents: { "worker-*": answer(DONE, { done: true }) },
      });
      expectValue(run.value, { answered: FAN_OUT_AGENTS }, "fan-out-50");
    },
  },
  {
    name: "timers-1000",
    description: `${TIMERS} one-hour wf.sleep timers in a row under the virtual clock (maxTimers: ${TIMERS})`,
    unit: "timer",
    perTest: TIMERS,
    warmup: 3,
    iterations: 30,
    async once() {
      const run = await testWorkflow(timers, { maxTimers: TIMERS });
      expectValue(run.value, { hours: TIMERS }, "timers-1000");
    },
  },
  {
    name: "messages-20",
    description: `${RING_AGENTS} agents in a ring, each asks the next (turn.send, awaitReply) and an "agent-*" messages script replies; two wf.parallel halves`,
    unit: "exchange",
    perTest: RING_AGENTS,
    warmup: 30,
    iterations: 300,
    async once() {
      const run = await testWorkflow(ring, {
        agents: {
          "agent-*": answer(async (turn) => {
            const sent = await turn.send(nextInRing(turn.agent), "Which number are you?", { awaitReply: true });
            return sent.kind === "replied" ? sent.text : JSON.stringify(sent);
          }),
        },
        messages: { "agent-*": (message) => message.reply(ringReply(message.turn.agent, message.from)) },
      });
      expectValue(run.value, { replied: RING_AGENTS }, "messages-20");
    },
  },
  {
    name: "one-turn, cwd given",
    description: "as one-turn, but with options.cwd so testWorkflow makes and removes no temporary directory",
    unit: "turn",
    perTest: 1,
    warmup: 500,
    iterations: 3000,
    diagnostic: true,
    async once() {
      const run = await testWorkflow(summarize, {
        args: { file: "README.md" },
        cwd: sharedCwd,
        agents: { reader: answer(SUMMARY, { summary: "Two sentences." }) },
      });
      expectValue(run.value, { summary: "Two sentences." }, "one-turn, cwd given");
    },
  },
  {
    name: "timers-1000, at once",
    description: `${TIMERS} wf.sleep timers set together (Promise.all), 1 to ${TIMERS} minutes: the clock jumps ${TIMERS} times over up to ${TIMERS} pending waits`,
    unit: "timer",
    perTest: TIMERS,
    warmup: 3,
    iterations: 30,
    diagnostic: true,
    async once() {
      const run = await testWorkflow(timersAtOnce, { maxTimers: TIMERS });
      expectValue(run.value, { minutes: TIMERS }, "timers-1000, at once");
    },
  },
  {
    name: "messages-20, no messages",
    description: "as messages-20, routes allowed, but each turn answers the reply text itself: the same 20 turns without the messages",
    unit: "turn",
    perTest: RING_AGENTS,
    warmup: 30,
    iterations: 300,
    diagnostic: true,
    async once() {
      const run = await testWorkflow(ring, { agents: { "agent-*": answer((turn) => ringReply(nextInRing(turn.agent), turn.agent)) } });
      expectValue(run.value, { replied: RING_AGENTS }, "messages-20, no messages");
    },
  },
];

interface Result {
  name: string;
  description: string;
  diagnostic: boolean;
  unit: Case["unit"];
  perTest: number;
  iterations: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  meanMs: number;
  /**
   * Median CPU time of the whole process per call (user + system, GC threads included): on a shared
   * machine other jobs' preemption swells the wall time, far less the CPU a call spends.
   */
  cpuMedianMs: number;
  /** Units (turns, timers, exchanges) per second at the median. */
  perSecond: number;
  /** Microseconds per unit at the median: the test's fixed cost included. */
  microsecondsEach: number;
  /** Process warnings emitted while it ran (warm-up included), by name and message. */
  warnings: Record<string, number>;
}

// bench/run.mjs runs this with --no-warnings so a warning per iteration doesn't flood the table;
// they are counted here instead, per benchmark, and reported.
let warnings: Record<string, number> = {};
process.on("warning", (warning) => {
  const key = `${warning.name}: ${warning.message.replace(/\d+/g, "N")}`;
  warnings[key] = (warnings[key] ?? 0) + 1;
});

function quantile(sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

async function measure(test: Case, scale: number): Promise<Result> {
  const warmup = Math.max(1, Math.round(test.warmup * scale));
  const iterations = Math.max(5, Math.round(test.iterations * scale));
  warnings = {};
  for (let index = 0; index < warmup; index++) await test.once();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let index = 0; index < iterations; index++) {
    const cpuStarted = process.cpuUsage();
    const started = performance.now();
    await test.once();
    samples.push(performance.now() - started);
    const cpu = process.cpuUsage(cpuStarted);
    cpuSamples.push((cpu.user + cpu.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  cpuSamples.sort((a, b) => a - b);
  const medianMs = quantile(samples, 0.5);
  return {
    name: test.name,
    description: test.description,
    diagnostic: !!test.diagnostic,
    unit: test.unit,
    perTest: test.perTest,
    iterations,
    medianMs,
    p95Ms: quantile(samples, 0.95),
    minMs: samples[0]!,
    meanMs: samples.reduce((sum, sample) => sum + sample, 0) / samples.length,
    cpuMedianMs: quantile(cpuSamples, 0.5),
    perSecond: (test.perTest * 1000) / medianMs,
    microsecondsEach: (medianMs * 1000) / test.perTest,
    warnings,
  };
}

function table(results: Result[]): string {
  const rows = [
    ["benchmark", "median ms", "p95 ms", "min ms", "cpu ms", "per second (median)", "µs each", "iterations"],
    ...results.map((result) => [
      result.diagnostic ? `(${result.name})` : result.name,
      result.medianMs.toFixed(3),
      result.p95Ms.toFixed(3),
      result.minMs.toFixed(3),
      result.cpuMedianMs.toFixed(3),
      `${Math.round(result.perSecond).toLocaleString("en-US")} ${result.unit}s`,
      result.microsecondsEach.toFixed(1),
      String(result.iterations),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ");
  return [line(rows[0]!), widths.map((width) => "-".repeat(width)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

/**
 * The floor a turn is measured against (issue 13): one promise hop and one TypeBox `Check` of the
 * schema, the least a scripted turn can cost. Timed in batches of 1,000, as one is too short to time.
 */
async function floorMicroseconds(): Promise<number> {
  const value = { summary: "Two sentences." };
  const batch = async () => {
    let checked = 0;
    for (let index = 0; index < 1_000; index++) {
      await Promise.resolve();
      if (Check(SUMMARY, value)) checked++;
    }
    if (checked !== 1_000) throw new Error("floor: TypeBox refused the summary");
  };
  for (let index = 0; index < 20; index++) await batch();
  const samples: number[] = [];
  for (let index = 0; index < 100; index++) {
    const started = performance.now();
    await batch();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return quantile(samples, 0.5);
}

interface Goal {
  goal: string;
  benchmark: string;
  medianMs: number;
  targetMs: number;
  ratio: number;
  floorMs: number;
  met: boolean;
  load: number;
  line: string;
}

/**
 * Issue 29's P1 line (a 1,000-turn test ≤ 5 ms warm), as every goal prints (BENCHMARKS.md): the
 * figure, its target, the ratio, the floor, met, the load. Issue 13's one-turn aim (50 µs) is not a goal of issue 29.
 */
function goalLines(results: Result[]): Goal[] {
  const targets = [{ benchmark: "sequential-1000", targetMs: 5, turns: LONG_SEQUENTIAL_TURNS }];
  const floorMs = floorEach / 1000;
  return targets.flatMap(({ benchmark, targetMs, turns }) => {
    const result = results.find((candidate) => candidate.name === benchmark);
    if (!result) return [];
    const ratio = result.medianMs / targetMs;
    const floor = floorMs * turns;
    const met = ratio <= 1;
    const load = Number(loadavg()[0]!.toFixed(2));
    const shown = (ms: number) => (ms < 0.1 ? `${Number((ms * 1000).toPrecision(3))} µs` : `${Number(ms.toPrecision(3))} ms`);
    const line =
      `goal P1 a ${turns.toLocaleString("en-US")}-turn test, warm (${benchmark}) · turnlens ${shown(result.medianMs)} (median of ${result.iterations}) · ratio to the target ${ratio.toFixed(2)} (target ≤ ${shown(targetMs)}, ratio ≤ 1)` +
      ` · floor ${shown(floor)}, ${(result.medianMs / floor).toFixed(0)}× · ${met ? "met" : "NOT met"} · load ${load}`;
    return [{ goal: "P1", benchmark, medianMs: result.medianMs, targetMs, ratio, floorMs: floor, met, load, line }];
  });
}

/** The floor's median per hop and check, in microseconds (measured once, after the benchmarks). */
let floorEach = 0;

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const scale = argv.includes("--quick") ? 0.1 : 1;
  const only = argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  const out = argv.find((arg) => arg.startsWith("--out="))?.slice("--out=".length);
  const cases = only ? CASES.filter((test) => test.name === only) : CASES;
  if (cases.length === 0) throw new Error(`no benchmark is named ${only}; the names: ${CASES.map((test) => test.name).join(", ")}`);

  const results: Result[] = [];
  for (const test of cases) {
    process.stderr.write(`${test.name}…\n`);
    results.push(await measure(test, scale));
  }
  floorEach = await floorMicroseconds();
  console.log(table(results));
  console.log(`(floor: one promise hop + one TypeBox Check, ${floorEach.toFixed(2)} µs each, median of 100 batches of 1,000)`);
  for (const result of results) {
    for (const [warning, count] of Object.entries(result.warnings)) {
      console.log(`\n${result.name} emitted ${count} warnings in ${result.iterations} tests (+ warm-up): ${warning}`);
    }
  }

  const oneTurn = results.find((result) => result.name === "one-turn");
  const noTemp = results.find((result) => result.name === "one-turn, cwd given");
  const summary: Record<string, unknown> = { floorMicroseconds: floorEach };
  if (oneTurn && noTemp) {
    summary.tempDirShareOfOneTurn = 1 - noTemp.medianMs / oneTurn.medianMs;
    console.log(
      `\nthe run's temporary folder (made only when the run may touch it) is ~${Math.round((summary.tempDirShareOfOneTurn as number) * 100)}% of the one-turn median`,
    );
  }
  const goals = goalLines(results);
  if (goals.length) {
    summary.goals = goals;
    console.log("");
    for (const goal of goals) console.log(goal.line);
  }
  const machine = {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? "?",
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    /** 1-minute load average when the run ended: above nproc, the numbers are noisier. */
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
  };
  console.log(`\nmachine: ${machine.nproc} cores (${machine.cpu}), node ${machine.node}, ${machine.platform}, load ${machine.loadAverage}`);
  if (out) {
    const report = {
      about: "Turnlens core benchmarks (npm run bench, see BENCHMARKS.md): ms per testWorkflow call in a warm process.",
      date: new Date().toISOString(),
      quick: scale !== 1,
      machine,
      results,
      summary,
    };
    // Microseconds are as fine as a noisy machine allows.
    const rounded = (_key: string, value: unknown) => (typeof value === "number" && !Number.isInteger(value) ? Number(value.toFixed(3)) : value);
    writeFileSync(out, `${JSON.stringify(report, rounded, 2)}\n`);
    console.log(`wrote ${out}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
