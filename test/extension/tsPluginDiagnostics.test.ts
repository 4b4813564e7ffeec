// The TypeScript plugin drops TypeScript's own error on a misspelled `testWorkflow` option (ts(2561)),
// which Turnlens reports with a fix: one problem, one report. A real LanguageService in memory, with
// the plugin's `create` applied as tsserver applies it; other unknown properties keep their error.
import { expect, test } from "bun:test";
import ts from "typescript";
import init from "../../tsPlugin/index.ts";

const TEXT = `declare function testWorkflow(workflow: unknown, options: { agents?: object; stall?: string }): Promise<void>;
declare function other(value: unknown, options: { agents?: object }): void;
testWorkflow({}, { agnets: {} });
other({}, { agnets: {} });
`;

function service(): ts.LanguageService {
  const files: Record<string, string> = { "/p/a.test.ts": TEXT };
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => ({ strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, lib: ["lib.es2022.d.ts"] }),
    getScriptFileNames: () => Object.keys(files),
    getScriptVersion: () => "1",
    getScriptSnapshot: (name) => {
      const text = files[name] ?? ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => "/p",
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (name) => name in files || ts.sys.fileExists(name),
    readFile: (name) => files[name] ?? ts.sys.readFile(name),
  };
  return ts.createLanguageService(host);
}

const lineOf = (diagnostic: ts.Diagnostic) => (diagnostic.start === undefined ? -1 : TEXT.slice(0, diagnostic.start).split("\n").length);

test("without the plugin TypeScript reports the misspelled option of both calls", () => {
  const codes = service()
    .getSemanticDiagnostics("/p/a.test.ts")
    .map((diagnostic) => [diagnostic.code, lineOf(diagnostic)]);
  expect(codes).toEqual([
    [2561, 3],
    [2561, 4],
  ]);
});

test("with the plugin the misspelled testWorkflow option is left to Turnlens, another call's stays", () => {
  const languageService = service();
  const plugin = init({ typescript: ts });
  const info = {
    languageService,
    languageServiceHost: {} as ts.LanguageServiceHost,
    config: { typesDir: "/nonexistent" },
    project: undefined,
  } as unknown as ts.server.PluginCreateInfo;
  const wrapped = plugin.create(info);
  const codes = wrapped.getSemanticDiagnostics("/p/a.test.ts").map((diagnostic) => [diagnostic.code, lineOf(diagnostic)]);
  expect(codes).toEqual([[2561, 4]]);
});
