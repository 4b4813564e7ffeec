// What a Vite config gives a Vitest test file, given by Turnlens's own: the config's `define` and
// `env`, the `.env` files' VITE_ variables, VITEST_POOL_ID/VITEST_WORKER_ID, `import.meta.glob`,
// `.wasm` imports (and Vite's `?init`, `?raw`, `?url`, `?inline`, assets), `/@vite/client`. Each row runs `turnlens test` on a fresh project.
import { describe } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliTests } from "./cliTable.ts";

/** A WebAssembly module importing `double: (i32) => i32` from "./host.js" and exporting `quadruple`, which calls it twice. */
const CALC_WASM = Buffer.from(
  [
    [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    [0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f],
    [0x02, 0x14, 0x01, 0x09, ..."./host.js"].map(byte),
    [0x06, ..."double", 0x00, 0x00].map(byte),
    [0x03, 0x02, 0x01, 0x00],
    [0x07, 0x0d, 0x01, 0x09, ..."quadruple", 0x00, 0x01].map(byte),
    [0x0a, 0x0a, 0x01, 0x08, 0x00, 0x20, 0x00, 0x10, 0x00, 0x10, 0x00, 0x0b],
  ].flat(),
);

function byte(value: number | string): number {
  return typeof value === "string" ? value.charCodeAt(0) : value;
}

const writeWasm = (dir: string) => writeFileSync(join(dir, "calc.wasm"), CALC_WASM);

describe("the config's define and env", () => {
  cliTests([
    {
      name: "define: a plain name is a global a file may reassign, import.meta.env.X and process.env.X are variables, a dotted name is replaced, a name as value is read where used",
      files: {
        "turnlens.config.mjs": `export default {
  define: {
    __VERSION__: '"1.2"',
    __JSON__: JSON.stringify({ hello: "world" }),
    __ZERO__: 0,
    __NOTHING__: undefined,
    "import.meta.env.TITLE": '"hello"',
    "process.env.GREETING": '"hi"',
    "APP.NAME": '"app"',
    __MODE__: "process.env.MODE",
    process: {},
  },
};
`,
        "define.test.ts": `import { expect, test } from "vitest";
declare let __VERSION__: string, __JSON__: { hello: string }, __ZERO__: number, __NOTHING__: undefined, __MODE__: string;
declare const APP: { NAME: string };
const version = () => __VERSION__;
test("values", () => {
  expect([version(), __JSON__, __ZERO__, __NOTHING__]).toEqual(["1.2", { hello: "world" }, 0, undefined]);
  expect([import.meta.env.TITLE, process.env.TITLE, process.env.GREETING, APP.NAME, __MODE__]).toEqual(["hello", "hello", "hi", "app", "test"]);
  expect(typeof process.cwd).toBe("function");
});
test("a plain name is reassigned everywhere", () => {
  __VERSION__ = "2.0";
  expect([version(), (globalThis as Record<string, unknown>).__VERSION__]).toEqual(["2.0", "2.0"]);
});
`,
        "second.test.ts": `import { expect, test } from "vitest";
declare let __VERSION__: string;
test("the next file gets the define's value again", () => expect(__VERSION__).toBe("1.2"));
`,
      },
      args: ["--maxWorkers", "1"],
      code: 0,
      stdout: { has: ["✓ define.test.ts (2 tests)", "✓ second.test.ts (1 test)"], lacks: ["changed the global"] },
    },
    {
      name: "a define value that is neither JSON nor a name is refused, naming the entry, and exits 2",
      files: { "turnlens.config.json": JSON.stringify({ define: { __SUM__: "1 + 2" } }), "a.test.ts": 'import { test } from "vitest";\ntest("x", () => {});\n' },
      args: [],
      code: 2,
      stderr: {
        has: ['turnlens.config.json: "define" gives "__SUM__" "1 + 2", which is neither JSON (write a string as \'"text"\') nor a name such as process.env.MODE'],
      },
    },
    {
      name: "env and the .env files' VITE_ variables reach process.env and import.meta.env (.env.test.local winning, others ignored), with the worker's ids, in the environment Vitest names node",
      files: {
        "turnlens.config.json": JSON.stringify({ env: { API_URL: "http://localhost" } }),
        ".env": 'VITE_NAME=base\nVITE_QUOTED="a b" # comment\nSECRET=hidden\n',
        ".env.test.local": "export VITE_NAME=local\n",
        ".env.production": "VITE_PROD=yes\n",
        "env.test.ts": `import { expect, test } from "vitest";
test("env", () => {
  expect([import.meta.env.VITE_NAME, import.meta.env.VITE_QUOTED, process.env.API_URL, import.meta.env.API_URL]).toEqual(["local", "a b", "http://localhost", "http://localhost"]);
  expect([process.env.SECRET, process.env.VITE_PROD]).toEqual([undefined, undefined]);
  expect([process.env.VITEST_POOL_ID, process.env.VITEST_WORKER_ID]).toEqual(["1", "0"]);
  expect(expect.getState().environment).toBe("node");
});
`,
      },
      args: ["--maxWorkers", "1"],
      env: { SECRET: undefined, VITE_NAME: undefined, VITEST_POOL_ID: undefined, VITEST_WORKER_ID: undefined },
      code: 0,
      lastLine: "1 passed, 0 failed",
    },
  ]);
});

describe("Vite's imports", () => {
  cliTests([
    {
      name: "import.meta.glob: lazy by default, eager with eager: true, one export with import, the text with query ?raw, ! patterns excluded, keys sorted",
      files: {
        "mods/b.ts": 'export const name = "b";\nexport default "B";\n',
        "mods/a.ts": 'export const name = "a";\nexport default "A";\n',
        "mods/skip.ts": 'export const name = "skip";\n',
        "mods/data.json": '{ "n": 1 }\n',
        "glob.test.ts": `import { expect, test } from "vitest";
test("lazy", async () => {
  const mods = import.meta.glob<{ name: string }>(["./mods/*.ts", "!./mods/skip.ts"]);
  expect(Object.keys(mods)).toEqual(["./mods/a.ts", "./mods/b.ts"]);
  expect((await mods["./mods/b.ts"]!()).name).toBe("b");
});
test("eager, one export", () => {
  const mods = import.meta.glob("./mods/[ab].ts", { eager: true, import: "default" });
  expect(mods).toEqual({ "./mods/a.ts": "A", "./mods/b.ts": "B" });
});
test("raw text", async () => {
  const texts = import.meta.glob("./mods/*.json", { query: "?raw", import: "default" });
  expect(await texts["./mods/data.json"]!()).toBe('{ "n": 1 }\\n');
});
`,
      },
      args: [],
      code: 0,
      lastLine: "3 passed, 0 failed",
    },
    {
      // (The call is written ${"vi"}.mock here so that this file's own mock planner does not take it for one of its calls.)
      name: "a file that mocks a ?raw import gets the mock (its lookup does not wait on itself)",
      files: {
        "note.txt": "a note\n",
        "mockRaw.test.ts": `import { expect, test, vi } from "vitest";
import note from "./note.txt?raw";
${"vi"}.mock("./note.txt?raw", () => ({ default: "mocked" }));
test("mocked", () => expect(note).toBe("mocked"));
`,
      },
      args: [],
      code: 0,
      lastLine: "1 passed, 0 failed",
    },
    {
      name: "a .wasm import is instantiated with the modules it imports (a cycle back to them too) and exports the instance's exports; ?init gives Vite's init",
      setup: writeWasm,
      files: {
        "host.js": 'import { quadruple } from "./calc.wasm";\nexport function double(x) {\n  return x * 2;\n}\nexport const viaWasm = (x) => quadruple(x);\n',
        "wasm.test.ts": `import { expect, test } from "vitest";
import { quadruple } from "./calc.wasm";
import { viaWasm } from "./host.js";
import init from "./calc.wasm?init";
test("esm", async () => {
  expect([quadruple(3), viaWasm(5)]).toEqual([12, 20]);
  const dynamic = await import("./calc.wasm");
  expect(dynamic.quadruple(1)).toBe(4);
});
test("init", async () => {
  const instance = await init({ "./host.js": { double: (x: number) => x * 3 } });
  expect(instance.exports.quadruple(2)).toBe(18);
});
`,
      },
      args: [],
      code: 0,
      lastLine: "2 passed, 0 failed",
    },
    {
      name: "/@vite/client is Vitest's stub of Vite's client: hot contexts that do nothing, styles only where there is a document",
      files: {
        "client.test.ts": `import { expect, test } from "vitest";
// @ts-expect-error Vite's client has no types here
import * as client from "/@vite/client";
test("stub", () => {
  const hot = client.createHotContext("/x.ts");
  expect(Object.keys(hot).sort()).toEqual(["accept", "decline", "dispose", "invalidate", "on", "prune", "send"]);
  expect(client.injectQuery("/a.css")).toBe("/a.css");
  expect(client.updateStyle("a", "body {}")).toBeUndefined();
  expect(client.removeStyle("a")).toBeUndefined();
});
`,
      },
      args: [],
      code: 0,
      lastLine: "1 passed, 0 failed",
    },
    {
      name: "an asset import and ?url are the file's URL from the root (/@fs/ outside it), a stylesheet's ?inline its text, by a literal import and by import(name) alike",
      files: {
        "assets/logo.png": "png",
        "assets/site.css": ".a { color: red; }\n",
        "assets.test.ts": `import { expect, test } from "vitest";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
// @ts-expect-error Vite's imports have no types here
import logo from "./assets/logo.png";
// @ts-expect-error
import css from "./assets/site.css?inline";
// @ts-expect-error
import cssUrl from "./assets/site.css?url";
test("literal", () => {
  expect([logo, css, cssUrl]).toEqual(["/assets/logo.png", ".a { color: red; }\\n", "/assets/site.css"]);
});
test("import(name)", async () => {
  const load = (name: string) => import(name);
  expect((await load("./assets/logo.png")).default).toBe("/assets/logo.png");
  expect((await load("./assets/site.css?inline")).default).toBe(".a { color: red; }\\n");
  const outside = join(tmpdir(), \`turnlens-asset-\${process.pid}.mp3\`);
  writeFileSync(outside, "");
  expect((await load(outside)).default).toBe("/@fs" + outside);
});
`,
      },
      args: [],
      code: 0,
      lastLine: "2 passed, 0 failed",
    },
  ]);
});
