// The workspace of the configTestFiles suite (suite/configTestFiles.js): a turnlens.config.json that
// includes tests/ and excludes fixtures/, each folder holding a test file that imports Turnlens.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const TEST = 'import { test } from "turnlens/testing";\n\ntest("x", () => {});\n';

/** Writes the suite's files into `path` (an empty folder); returns `path`. */
export function configTestFilesWorkspace(path) {
  const files = {
    "turnlens.config.json": `${JSON.stringify({ include: ["tests/", "fixtures/"], exclude: ["fixtures/**"] })}\n`,
    "tests/a.test.ts": TEST,
    "fixtures/b.test.ts": TEST,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(path, name)), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  return path;
}
