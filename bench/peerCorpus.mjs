// Writes the corpus bench/runnerPeers.mjs runs under turnlens test, bun test and vitest: N test
// files of ten one-turn testWorkflow tests, each beside a workflow module of its own, and the
// set-up that serves every peer the same modules (Turnlens's dist/ builds of the engine and TypeBox).

import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The dist/ file each served name resolves to, for the peers (what the Vitest plugin serves too). */
function servedFiles(root) {
  const dist = join(root, "dist");
  const files = {
    "agentswf/workflow": join(dist, "workflow.mjs"),
    "agentswf/testing": join(dist, "testing.mjs"),
    typebox: join(dist, "served", "typebox.mjs"),
  };
  return files;
}

function workflowSource(index) {
  return `import { defineWorkflow } from "agentswf/workflow";
import Type from "typebox";

export const SUMMARY = Type.Object({ summary: Type.String(), index: Type.Number() });

export default defineWorkflow({
  name: "summarize-${index}",
  description: "Summarise a file in two sentences.",
  prepare: ({ argv }) => ({ file: argv[0] ?? "README.md" }),
  async run(wf, { file }) {
    const reader = await wf.agents.open({ key: "reader", runtime: "claude" });
    const { outcome } = await reader.run({ prompt: \`Read \${file} and summarise it.\`, schema: SUMMARY });
    return outcome.kind === "answered" ? outcome.value : { summary: \`no answer: \${outcome.reason}\`, index: -1 };
  },
});
`;
}

function testSource(index, tests) {
  const lines = [
    `import { expect, test } from "bun:test";`,
    `import { answer, testWorkflow } from "agentswf/testing";`,
    `import summarize, { SUMMARY } from "./workflow${index}";`,
    "",
  ];
  for (let t = 0; t < tests; t++) {
    lines.push(
      `test("file ${index} test ${t} returns the reader's summary", async () => {`,
      `  const run = await testWorkflow(summarize, {`,
      `    args: { file: "README.md" },`,
      `    agents: { reader: answer(SUMMARY, { summary: "Two sentences.", index: ${t} }) },`,
      `  });`,
      `  expect(run.value).toEqual({ summary: "Two sentences.", index: ${t} });`,
      `  expect(run.turnsOf("reader")[0].prompt).toContain("Read README.md");`,
      `});`,
      "",
    );
  }
  return lines.join("\n");
}

/**
 * The peers' set-up in `dir`: node_modules linked to Turnlens's own (vitest, vite, bun), a
 * tsconfig whose paths bun follows, and a vitest config with the turnlens plugin.
 */
function writePeerSetup(dir, root) {
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  const paths = Object.fromEntries(Object.entries(servedFiles(root)).map(([name, file]) => [name, [file]]));
  writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify({ compilerOptions: { module: "preserve", moduleResolution: "bundler", paths } }, null, 2)}\n`);
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "turnlens-peer-corpus", private: true, type: "module" }, null, 2)}\n`);
  writeFileSync(
    join(dir, "vitest.config.mjs"),
    `import { defineConfig } from "vitest/config";\nimport turnlens from ${JSON.stringify(join(root, "dist", "vitest.mjs"))};\nexport default defineConfig({ plugins: [turnlens()], test: { include: ["**/*.test.ts"], exclude: ["node_modules/**"] } });\n`,
  );
}

/** `files` test files of `tests` tests each, under `dir` (made), set up for every peer. */
export function writeCorpus(dir, root, files, tests = 10) {
  mkdirSync(dir, { recursive: true });
  writePeerSetup(dir, root);
  const perFolder = 100;
  for (let i = 0; i < files; i++) {
    const folder = join(dir, "tests", `group${Math.floor(i / perFolder)}`);
    if (i % perFolder === 0) mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, `workflow${i}.ts`), workflowSource(i));
    writeFileSync(join(folder, `summarize${i}.test.ts`), testSource(i, tests));
  }
}

/** A copy of the repository's examples/ (without examples/mistakes, which fail on purpose) under `dir`. */
export function writeExamplesCorpus(dir, root) {
  mkdirSync(dir, { recursive: true });
  writePeerSetup(dir, root);
  cpSync(join(root, "examples"), join(dir, "examples"), { recursive: true, filter: (source) => !source.includes(`${join("examples", "mistakes")}`) });
}
