// Relative and absolute imports that name no file keep their meanings whether a file is bundled
// alone or ahead with others: a bundle is first built without the callback that resolves them, and
// again with it when one is left unresolved (unresolvedPaths.ts).
import { describe, expect } from "bun:test";
import { cliTests, reportOf } from "./cliTable.ts";

/** A test file whose calls handle the failure of imports of files that do not exist. */
const HANDLED_TEST = `import { expect, test } from "bun:test";

test("a require of a missing file in a try throws the stand-in's ERR_MODULE_NOT_FOUND, naming the file beside the test", () => {
  let caught: { code?: string; message?: string } = {};
  try {
    require("./missing-helper.cjs");
  } catch (error) {
    caught = error as typeof caught;
  }
  expect([caught.code, caught.message]).toEqual(["ERR_MODULE_NOT_FOUND", \`Cannot find module '\${__dirname}/missing-helper.cjs' imported from \${__filename}\`]);
});

test("an import() of a missing file whose rejection is caught rejects with the stand-in's error, naming the file beside the test", async () => {
  const error = await import("./missing-part.ts").catch((caught: { code?: string; message?: string }) => caught);
  expect([error.code, error.message]).toEqual(["ERR_MODULE_NOT_FOUND", \`Cannot find module '\${__dirname}/missing-part.ts' imported from \${__filename}\`]);
});
`;

/** A test file that imports, statically, a path from the project root and a folder with exports. */
const ROOTED_TEST = `import { expect, test } from "bun:test";
import { rooted } from "/src/rooted.ts";
import folder from "./pkg";

test("/src/… names the project's src folder, and a folder import its package.json's exports", () => {
  expect([rooted, folder]).toEqual(["rooted", "node"]);
});
`;

const FILES = ["a1", "a2", "a3", "a4", "a5"];

describe("path imports that name no file as written", () => {
  cliTests([
    {
      name: "a file bundled alone and the files bundled ahead after it in the same worker each give a handled missing import its stand-in",
      files: Object.fromEntries(FILES.map((name) => [`${name}.test.ts`, HANDLED_TEST])),
      args: [".", "--maxWorkers", "1", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(reportOf(result).files.map((file) => file.tests.map((t) => t.status))).toEqual(FILES.map(() => ["passed", "passed"]));
      },
    },
    {
      name: "a file bundled alone and the files bundled ahead after it in the same worker each resolve /src/… from the project root and a folder by its exports",
      files: {
        ...Object.fromEntries(FILES.map((name) => [`${name}.test.ts`, ROOTED_TEST])),
        "src/rooted.ts": 'export const rooted = "rooted";\n',
        "pkg/package.json": JSON.stringify({ name: "pkg", exports: { ".": { node: "./node.js", default: "./default.js" } } }),
        "pkg/node.js": 'export default "node";\n',
        "pkg/default.js": 'export default "default";\n',
      },
      args: [".", "--maxWorkers", "1", "--reporter", "json"],
      code: 0,
      check: (result) => {
        expect(reportOf(result).files.map((file) => file.tests.map((t) => t.status))).toEqual(FILES.map(() => ["passed"]));
      },
    },
  ]);
});
