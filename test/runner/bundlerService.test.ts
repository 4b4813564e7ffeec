// A worker's esbuild service runs on one Go thread (worker.ts: Go's idle threads spin between the
// plugin's callbacks), and the variable that says so is the service's alone: a test never sees a
// GOMAXPROCS Turnlens set, and one the user set reaches both the test and the service.
import { describe } from "bun:test";
import { cliTests, DIR } from "./cliTable.ts";

/** A test that reads its worker's esbuild child's GOMAXPROCS from /proc and its own from process.env. */
function probe(expectedTest: string | undefined, expectedService: string): string {
  return `import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";

test("the worker's and its esbuild service's GOMAXPROCS", () => {
  const children = readdirSync(\`/proc/\${process.pid}/task\`).flatMap((task) =>
    readFileSync(\`/proc/\${process.pid}/task/\${task}/children\`, "utf8").trim().split(" ").filter(Boolean),
  );
  const services = children.filter((pid) => readFileSync(\`/proc/\${pid}/cmdline\`, "utf8").includes("--service="));
  const serviceValues = services.map((pid) => readFileSync(\`/proc/\${pid}/environ\`, "utf8").split("\\0").filter((entry) => entry.startsWith("GOMAXPROCS=")));
  expect({ test: process.env.GOMAXPROCS, services: serviceValues }).toEqual({ test: ${JSON.stringify(expectedTest)}, services: [[${JSON.stringify(`GOMAXPROCS=${expectedService}`)}]] });
});
`;
}

describe("the worker's esbuild service", () => {
  cliTests([
    {
      name: "runs with GOMAXPROCS=1, which the test's own environment does not have",
      files: { "probe.test.ts": probe(undefined, "1") },
      args: [DIR, "--reporter", "dot"],
      env: { GOMAXPROCS: undefined },
      code: 0,
    },
    {
      name: "runs with the GOMAXPROCS the user set, which the test sees too",
      files: { "probe.test.ts": probe("2", "2") },
      args: [DIR, "--reporter", "dot"],
      env: { GOMAXPROCS: "2" },
      code: 0,
    },
  ]);
});
