// `vitest run` with `turnlens/vitest`, where the packed tarball and Vitest are installed in a fresh
// folder: the examples and the mistakes of examples/mistakes, copied in, pass and fail exactly as
// under that folder's own `npx turnlens test`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type InstalledProject, INSTALL_TIMEOUT, installedProject, ROOT, removeTarball } from "./installedProject.ts";
import { type ParityResult, vitestParity } from "./vitestParity.ts";

const vitestVersion = (JSON.parse(readFileSync(join(ROOT, "node_modules", "vitest", "package.json"), "utf8")) as { version: string }).version;

let project: InstalledProject | undefined;
let result: ParityResult;

beforeAll(async () => {
  project = await installedProject({ packages: [`vitest@${vitestVersion}`] });
  cpSync(join(ROOT, "examples"), join(project.dir, "examples"), { recursive: true });
  result = await vitestParity(project.dir, { paths: ["examples"], timeoutMs: INSTALL_TIMEOUT / 2 });
}, INSTALL_TIMEOUT);

afterAll(() => {
  project?.remove();
  removeTarball();
});

test(
  "in a fresh folder with the tarball and vitest installed, vitest run passes and fails exactly the tests turnlens test does",
  () => {
    // Installed from the tarball, not linked to this repository.
    expect(lstatSync(join(project!.dir, "node_modules", "turnlens")).isSymbolicLink()).toBe(false);
    expect(Object.keys(result.turnlens).length).toBeGreaterThan(40);
    expect(result.vitest).toEqual(result.turnlens);
    expect([result.runs.turnlens.code, result.runs.vitest.code]).toEqual([1, 1]);
  },
  INSTALL_TIMEOUT,
);

test("there, every example passes and every test file of examples/mistakes fails", () => {
  const mistakeFiles = readdirSync(join(ROOT, "examples", "mistakes"))
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => `examples/mistakes/${name}`)
    .sort();
  const entries = Object.entries(result.vitest);
  const failedFiles = [...new Set(entries.filter(([, status]) => status === "failed").map(([key]) => key.split(" > ")[0]))].sort();
  expect(failedFiles).toEqual(mistakeFiles);
  expect(entries.filter(([key, status]) => !key.startsWith("examples/mistakes/") && status !== "passed")).toEqual([]);
});
