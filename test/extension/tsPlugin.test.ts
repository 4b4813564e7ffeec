// The TypeScript server plugin without VS Code: a LanguageService over a temp project whose tsconfig
// has no paths, with the built plugin applied the way tsserver applies it. Served modules resolve,
// answers are checked against their schema, and without the plugin the errors come back.
import { afterAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { servedPaths } from "../../core/runner/init.ts";
import { servedNames } from "../../core/execution/served.ts";
import { declarationFor } from "../../tsPlugin/index.ts";
import { HANG_GUARD_MS } from "../hangGuard.ts";

/**
 * Building a program over Turnlens's and typebox's declarations takes a few seconds the first
 * time, and a minute on a loaded machine: only a true hang ends these tests.
 */
const SLOW = HANG_GUARD_MS;

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const TYPES = join(ROOT, "dist", "types");

/** The plugin as tsserver loads it: by package name, from <extension>/node_modules. */
function loadPlugin(): (modules: { typescript: typeof ts }) => ts.server.PluginModule {
  const require = createRequire(join(ROOT, "package.json"));
  return require(join(ROOT, "node_modules", "turnlens-typescript-plugin")) as (modules: { typescript: typeof ts }) => ts.server.PluginModule;
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A folder outside the repo with `files`, a tsconfig without paths, and nothing installed. */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "turnlens-tsplugin-test-"));
  made.push(dir);
  const all: Record<string, string> = {
    "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, noEmit: true } }),
    ...files,
  };
  for (const [name, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** The summarize example, copied as a user would have it. */
function summarizeProject(): string {
  const dir = project({});
  for (const name of ["summarize.ts", "summarize.test.ts"]) copyFileSync(join(ROOT, "examples", "summarize", name), join(dir, name));
  return dir;
}

/** Shared like tsserver shares it between projects: lib and declaration files are parsed once. */
const registry = ts.createDocumentRegistry();

interface Service {
  service: ts.LanguageService;
  host: ts.LanguageServiceHost;
  /** Replaces a file's text in memory, as an editor's unsaved change. */
  edit(file: string, text: string): void;
  diagnostics(file: string): ts.Diagnostic[];
}

/**
 * A LanguageService whose host resolves modules the way tsserver's Project does (it implements
 * resolveModuleNameLiterals); `literals: false` leaves resolution to TypeScript instead.
 */
function languageService(dir: string, { literals = true } = {}): Service {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(dir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  const texts = new Map<string, string>();
  const versions = new Map<string, number>();
  const cache = ts.createModuleResolutionCache(dir, (f) => f, config.options);
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => config.options,
    getScriptFileNames: () => config.fileNames,
    getScriptVersion: (f) => String(versions.get(f) ?? 0),
    getScriptSnapshot: (f) => {
      const text = texts.get(f) ?? (existsSync(f) ? readFileSync(f, "utf8") : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dir,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (f) => texts.has(f) || ts.sys.fileExists(f),
    readFile: (f) => texts.get(f) ?? ts.sys.readFile(f),
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath!,
  };
  if (literals) {
    host.resolveModuleNameLiterals = (names, containingFile, redirected, options, sourceFile) =>
      names.map((literal) =>
        ts.resolveModuleName(
          literal.text,
          containingFile,
          options,
          host as ts.ModuleResolutionHost,
          cache,
          redirected,
          ts.getModeForUsageLocation(sourceFile, literal, options),
        ),
      );
  }
  const service = ts.createLanguageService(host, registry);
  return {
    service,
    host,
    edit(file, text) {
      texts.set(file, text);
      versions.set(file, (versions.get(file) ?? 0) + 1);
    },
    diagnostics: (file) => [...service.getSyntacticDiagnostics(file), ...service.getSemanticDiagnostics(file)],
  };
}

/** A language service on `dir` (with or without resolveModuleNameLiterals, as `literals` says) and the plugin applied. */
function serviceWithPlugin(dir: string, options?: { literals?: boolean }): Service {
  const ls = languageService(dir, options);
  withPlugin(ls, dir);
  return ls;
}

/** examples/summarize in a fresh project, in a language service with the plugin: its test file and text. */
function summarizeWithPlugin(): { dir: string; ls: Service; file: string; text: string } {
  const dir = summarizeProject();
  const ls = serviceWithPlugin(dir);
  const file = join(dir, "summarize.test.ts");
  return { dir, ls, file, text: readFileSync(file, "utf8") };
}

/** Applies the plugin to a language service the way tsserver does. */
function withPlugin(ls: Service, dir: string, config: Record<string, unknown> = {}): ts.LanguageService {
  const pluginModule = loadPlugin()({ typescript: ts });
  const logged: string[] = [];
  const info = {
    languageService: ls.service,
    languageServiceHost: ls.host,
    project: { getCurrentDirectory: () => dir, projectService: { logger: { info: (m: string) => logged.push(m) } } },
    serverHost: ts.sys,
    config,
  } as unknown as ts.server.PluginCreateInfo;
  return pluginModule.create(info);
}

function messages(diagnostics: readonly ts.Diagnostic[]): string[] {
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("with the plugin", () => {
  test(
    "the summarize workflow and its test have no errors at all",
    () => {
      const { dir, ls, file } = summarizeWithPlugin();
      expect(messages(ls.diagnostics(file))).toEqual([]);
      expect(messages(ls.diagnostics(join(dir, "summarize.ts")))).toEqual([]);
      // The served names point into Turnlens's declarations.
      const program = ls.service.getProgram()!;
      const files = program.getSourceFiles().map((f) => f.fileName);
      expect(files).toContain(join(TYPES, "agentswf", "testing.d.ts"));
      expect(files).toContain(join(TYPES, "bun-test.d.ts"));
      expect(files).toContain(join(TYPES, "node_modules", "typebox", "build", "index.d.mts"));
    },
    SLOW,
  );

  test(
    "an answer that does not match its schema is a type error at `summary`",
    () => {
      const { ls, file, text } = summarizeWithPlugin();
      const wrong = text.replace('answer(SUMMARY, { summary: "Two sentences." })', "answer(SUMMARY, { summary: 3 })");
      expect(wrong).not.toBe(text);
      ls.edit(file, wrong);
      const errors = ls.service.getSemanticDiagnostics(file);
      expect(messages(errors)).toEqual(["Type 'number' is not assignable to type 'string'."]);
      const error = errors[0]!;
      expect(wrong.slice(error.start!, error.start! + error.length!)).toBe("summary");
      expect(wrong.slice(0, error.start!)).toEndWith("answer(SUMMARY, { ");
    },
    SLOW,
  );

  test(
    "hover shows the schema's static type and completions offer Turnlens's API",
    () => {
      const { ls, file, text } = summarizeWithPlugin();
      const quick = ls.service.getQuickInfoAtPosition(file, text.indexOf("run.value") + "run.".length);
      expect(ts.displayPartsToString(quick?.displayParts)).toContain("summary: string");
      const completions = ls.service.getCompletionsAtPosition(file, text.indexOf("noAnswer.silent") + "noAnswer.".length, {});
      expect(completions?.entries.map((e) => e.name)).toContain("silent");
    },
    SLOW,
  );

  test(
    "typebox subpaths and vitest resolve too",
    () => {
      const dir = project({
        "check.test.ts": [
          'import { expect, test } from "vitest";',
          'import { Value } from "typebox/value";',
          'import { Type } from "agentswf/workflow";',
          'import type { RunTrace } from "turnlens/trace";',
          "const S = Type.Object({ n: Type.Number() });",
          'test("checks", () => { expect(Value.Check(S, { n: 1 })).toBe(true); });',
          "export type T = RunTrace;",
          "",
        ].join("\n"),
      });
      const ls = serviceWithPlugin(dir);
      expect(messages(ls.diagnostics(join(dir, "check.test.ts")))).toEqual([]);
    },
    SLOW,
  );

  test(
    "paths turnlens init wrote before turnlens is installed (into a missing ./node_modules/turnlens) leave the plugin to resolve",
    () => {
      const dir = summarizeProject();
      const paths = servedPaths(join(dir, "node_modules", "turnlens", "dist", "types"), dir);
      expect(paths["agentswf/testing"]).toEqual(["./node_modules/turnlens/dist/types/agentswf/testing.d.ts"]);
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { target: "ES2022", module: "preserve", moduleResolution: "bundler", strict: true, noEmit: true, paths } }),
      );
      const ls = serviceWithPlugin(dir);
      expect(messages(ls.diagnostics(join(dir, "summarize.test.ts")))).toEqual([]);
      expect(
        ls.service
          .getProgram()!
          .getSourceFiles()
          .map((f) => f.fileName),
      ).toContain(join(TYPES, "agentswf", "testing.d.ts"));
    },
    SLOW,
  );

  test(
    "a module the project installs itself wins over Turnlens's",
    () => {
      const dir = project({
        "node_modules/vitest/package.json": JSON.stringify({ name: "vitest", version: "9.9.9", types: "index.d.ts" }),
        "node_modules/vitest/index.d.ts": "export declare const onlyInTheUsersVitest: 1;\n",
        "uses.ts": 'import { onlyInTheUsersVitest } from "vitest";\nexport const one: 1 = onlyInTheUsersVitest;\n',
      });
      const ls = serviceWithPlugin(dir);
      expect(messages(ls.diagnostics(join(dir, "uses.ts")))).toEqual([]);
    },
    SLOW,
  );

  test(
    "a host without resolveModuleNameLiterals gets TypeScript's resolution plus the plugin's",
    () => {
      const dir = summarizeProject();
      const ls = serviceWithPlugin(dir, { literals: false });
      expect(messages(ls.diagnostics(join(dir, "summarize.test.ts")))).toEqual([]);
    },
    SLOW,
  );

  test(
    "a typesDir without declarations leaves the service as it was",
    () => {
      const dir = summarizeProject();
      const ls = languageService(dir);
      withPlugin(ls, dir, { typesDir: join(dir, "nowhere") });
      expect(messages(ls.diagnostics(join(dir, "summarize.test.ts")))).toContain("Cannot find module 'agentswf/testing' or its corresponding type declarations.");
    },
    SLOW,
  );
});

describe("without the plugin", () => {
  test(
    "the same project cannot find the served modules (the test above can fail)",
    () => {
      const dir = summarizeProject();
      const ls = languageService(dir);
      const found = messages(ls.diagnostics(join(dir, "summarize.test.ts")));
      expect(found).toContain("Cannot find module 'agentswf/testing' or its corresponding type declarations.");
      expect(found).toContain("Cannot find module 'bun:test' or its corresponding type declarations.");
    },
    SLOW,
  );
});

/** Opens `file` in a real tsserver process and returns its semantic diagnostics' texts. */
function tsserverDiagnostics(file: string, pluginProbe?: string): Promise<string[]> {
  const args = [join(ROOT, "node_modules", "typescript", "lib", "tsserver.js"), "--disableAutomaticTypingAcquisition"];
  // What VS Code passes for a plugin an extension contributes: its name and the extension's folder.
  if (pluginProbe) args.push("--globalPlugins", "turnlens-typescript-plugin", "--pluginProbeLocations", pluginProbe);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
    let buffer = "";
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (const line of buffer.split("\n")) {
        if (!line.startsWith("{")) continue;
        const message = JSON.parse(line) as { type: string; command?: string; request_seq?: number; body?: { text: string }[] };
        if (message.type === "response" && message.request_seq === 2) {
          child.kill();
          resolve((message.body ?? []).map((d) => d.text));
        }
      }
    });
    child.on("error", reject);
    child.on("close", () => reject(new Error("tsserver ended without answering")));
    const send = (seq: number, command: string, args: object) => child.stdin.write(`${JSON.stringify({ seq, type: "request", command, arguments: args })}\n`);
    send(1, "open", { file });
    send(2, "semanticDiagnosticsSync", { file });
  });
}

describe("in a tsserver process, loaded the way VS Code loads it", () => {
  test(
    "from an extension folder holding only dist/ and node_modules/turnlens-typescript-plugin",
    async () => {
      const extension = mkdtempSync(join(tmpdir(), "turnlens-extension-"));
      made.push(extension);
      cpSync(join(ROOT, "dist", "tsPlugin"), join(extension, "dist", "tsPlugin"), { recursive: true });
      cpSync(join(ROOT, "dist", "types"), join(extension, "dist", "types"), { recursive: true });
      cpSync(join(ROOT, "node_modules", "turnlens-typescript-plugin"), join(extension, "node_modules", "turnlens-typescript-plugin"), { recursive: true });
      const dir = summarizeProject();
      expect(await tsserverDiagnostics(join(dir, "summarize.test.ts"), extension)).toEqual([]);
    },
    SLOW,
  );

  test(
    "without the plugin tsserver reports the missing modules",
    async () => {
      const dir = summarizeProject();
      expect(await tsserverDiagnostics(join(dir, "summarize.test.ts"))).toContain("Cannot find module 'agentswf/testing' or its corresponding type declarations.");
    },
    SLOW,
  );
});

describe("the declarations", () => {
  test("every module the runner serves has a declaration file in dist/types", () => {
    const missing = servedNames.filter((name) => {
      const file = declarationFor(name, TYPES);
      return file === undefined || !existsSync(file);
    });
    expect(missing).toEqual([]);
  });

  test("the plugin package tsserver loads is a package.json and a main that exist", () => {
    const pkgDir = join(ROOT, "node_modules", "turnlens-typescript-plugin");
    const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { name: string; main: string };
    expect(pkg.name).toBe("turnlens-typescript-plugin");
    expect(existsSync(join(pkgDir, pkg.main))).toBe(true);
    expect(typeof loadPlugin()).toBe("function");
  });

  test("package.json contributes the plugin to VS Code's TypeScript", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      contributes?: { typescriptServerPlugins?: { name: string; enableForWorkspaceTypeScriptVersions?: boolean }[] };
    };
    expect(pkg.contributes?.typescriptServerPlugins).toContainEqual({ name: "turnlens-typescript-plugin", enableForWorkspaceTypeScriptVersions: true });
  });
});
