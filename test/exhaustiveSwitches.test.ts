// Every `switch` in the product code ends in a `default:` that tsc proves unreachable
// (`value satisfies never`), so a kind added to a union fails the typecheck at each switch that
// forgot it, instead of falling through in silence. A switch over an open set of values (any string
// a user may write) is listed in OPEN_SWITCHES, each with why its default is a real case.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
const PRODUCT = ["core", "server", "extension", "tsPlugin"];

/** `file › subject` of the switches whose default handles values no union lists. */
const OPEN_SWITCHES: Record<string, string> = {
  "server/features/commands.ts › params.command": "a client may send any command name; the default refuses it",
  'server/analysis/siteLookup.ts › option ?? "agents"': "a problem's option is any option name; the default places it on the call",
  "server/analysis/literalValues.ts › expression.kind": "TypeScript's SyntaxKind has hundreds of members; the default reads the rest as not known",
  "core/workflow/agents.ts › end.kind": "the ends with no answer to look at pass through as they are",
  "core/testing/validAnswer.ts › type": "a JSON schema's `type` is any string a schema wrote",
  "core/mutate/mutantValues.ts › schema.type": "a JSON schema's `type` is any string a schema wrote",
  "core/workflow/answerCheck.ts › error.keyword": "a validator error's keyword is any JSON Schema keyword; the default keeps the validator's own words",
  "core/testApi/eachTable.ts › code": "a `.each` name's `%` code is any character a test wrote",
  "core/execution/transform.ts › key": "`import.meta`'s property is any name the file reads",
  "core/execution/importMetaGlob.ts › node.type": "an argument is any of JavaScript's expressions; only literals are read, the default refuses the rest",
};

interface Switch {
  where: string;
  exhaustive: boolean;
}

/** Each `switch (subject) {` of `text`, with whether its body ends in a `default:` proven unreachable. */
function switchesOf(file: string, text: string): Switch[] {
  const lines = text.split("\n");
  const found: Switch[] = [];
  lines.forEach((line, index) => {
    const match = /^\s*switch \((.+)\) \{\s*$/.exec(line);
    if (!match) return;
    let depth = 0;
    let end = index;
    for (; end < lines.length; end++) {
      depth += (lines[end]!.match(/\{/g) ?? []).length - (lines[end]!.match(/\}/g) ?? []).length;
      if (depth === 0) break;
    }
    const body = lines.slice(index + 1, end).join("\n");
    found.push({ where: `${file} › ${match[1]}`, exhaustive: /\bdefault:\s*\n\s*(?:return )?[\w.]+ satisfies never;/.test(body) });
  });
  return found;
}

function productSwitches(): Switch[] {
  return PRODUCT.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
      .flatMap((file) => switchesOf(`${folder}/${file}`, readFileSync(join(ROOT, folder, file), "utf8"))),
  );
}

test("every switch in the product code ends in a default tsc proves unreachable, or is a listed switch over an open set", () => {
  const switches = productSwitches();
  expect(switches.filter(({ where, exhaustive }) => !exhaustive && !(where in OPEN_SWITCHES)).map(({ where }) => where)).toEqual([]);
  expect(Object.keys(OPEN_SWITCHES).filter((where) => !switches.some((found) => found.where === where && !found.exhaustive))).toEqual([]);
});

test("a switch that forgets its default, or ends in an ordinary default, is found", () => {
  const text = [
    "switch (ending.kind) {",
    '  case "completed":',
    "    return 1;",
    "}",
    "switch (other) {",
    '  case "a":',
    "    return 1;",
    "  default:",
    "    return 2;",
    "}",
    "switch (third) {",
    '  case "a":',
    "    return 1;",
    "  default:",
    "    return third satisfies never;",
    "}",
  ].join("\n");
  expect(switchesOf("f.ts", text)).toEqual([
    { where: "f.ts › ending.kind", exhaustive: false },
    { where: "f.ts › other", exhaustive: false },
    { where: "f.ts › third", exhaustive: true },
  ]);
});
