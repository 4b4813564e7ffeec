// The Turnlens TypeScript server plugin: module names Turnlens serves to test files (agentswf/*,
// turnlens/*, typebox, bun:test, vitest) resolve to Turnlens's own declarations (dist/types) when
// the project does not resolve them itself; and TypeScript's own error on a misspelled option of
// `testWorkflow(...)` is dropped, since Turnlens reports it (with a fix). docs/types-in-the-editor.md
import type * as ts from "typescript";
import { existsSync } from "node:fs";
import { join } from "node:path";
import served from "../core/execution/servedTypes.json" with { type: "json" };

type TS = typeof ts;

export interface PluginConfig {
  /** The folder holding the declarations; defaults to dist/types next to this bundle. */
  typesDir?: string;
}

/** The folder of the declarations when this file runs as dist/tsPlugin/index.js. */
function defaultTypesDir(): string {
  return join(__dirname, "..", "types");
}

/** The declaration file Turnlens has for `name`, or undefined when it serves no such module. */
export function declarationFor(name: string, typesDir: string): string | undefined {
  const own = (served.modules as Record<string, { file: string }>)[name];
  if (own) return join(typesDir, own.file);
  for (const [pattern, file] of Object.entries(served.packages as Record<string, string>)) {
    if (pattern === name) return join(typesDir, file);
    const star = pattern.indexOf("*");
    if (star < 0) continue;
    const prefix = pattern.slice(0, star);
    const suffix = pattern.slice(star + 1);
    if (name.length > prefix.length + suffix.length && name.startsWith(prefix) && name.endsWith(suffix)) {
      const middle = name.slice(prefix.length, name.length - suffix.length);
      if (middle.includes("..")) return undefined;
      const path = join(typesDir, file.replace("*", middle));
      return existsSync(path) ? path : undefined;
    }
  }
  return undefined;
}

function extensionOf(file: string): string {
  for (const ext of [".d.mts", ".d.cts", ".d.ts"]) if (file.endsWith(ext)) return ext;
  return ".d.ts";
}

/**
 * Wraps the host's module resolution: whatever the project resolves stays; a served name it
 * cannot resolve gets Turnlens's declaration file. Exported for tests.
 */
export function patchHost(typescript: TS, host: ts.LanguageServiceHost, typesDir: string): void {
  const fallback = (name: string): ts.ResolvedModuleFull | undefined => {
    const file = declarationFor(name, typesDir);
    if (!file || !existsSync(file)) return undefined;
    return { resolvedFileName: file, extension: extensionOf(file), isExternalLibraryImport: true };
  };

  const originalLiterals = host.resolveModuleNameLiterals?.bind(host);
  const originalNames = host.resolveModuleNames?.bind(host);

  if (originalLiterals || !originalNames) {
    // TypeScript 5+: tsserver's Project implements resolveModuleNameLiterals. A host without
    // either method gets TypeScript's own resolution plus the fallback.
    let cache: ts.ModuleResolutionCache | undefined;
    const defaultResolve = (
      literals: readonly ts.StringLiteralLike[],
      containingFile: string,
      redirectedReference: ts.ResolvedProjectReference | undefined,
      options: ts.CompilerOptions,
      containingSourceFile: ts.SourceFile,
    ): readonly ts.ResolvedModuleWithFailedLookupLocations[] => {
      const moduleHost: ts.ModuleResolutionHost = {
        fileExists: (f) => (host.fileExists ? host.fileExists(f) : typescript.sys.fileExists(f)),
        readFile: (f) => (host.readFile ? host.readFile(f) : typescript.sys.readFile(f)),
        ...(host.realpath ? { realpath: (p: string) => host.realpath!(p) } : {}),
        directoryExists: (d) => (host.directoryExists ? host.directoryExists(d) : typescript.sys.directoryExists(d)),
        getCurrentDirectory: () => host.getCurrentDirectory(),
        ...(host.getDirectories ? { getDirectories: (d: string) => host.getDirectories!(d) } : {}),
      };
      cache ??= typescript.createModuleResolutionCache(host.getCurrentDirectory(), (f) => f, options);
      return literals.map((literal) =>
        typescript.resolveModuleName(
          literal.text,
          containingFile,
          options,
          moduleHost,
          cache,
          redirectedReference,
          typescript.getModeForUsageLocation(containingSourceFile, literal, options),
        ),
      );
    };
    const resolve = originalLiterals ?? defaultResolve;
    host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, options, containingSourceFile, reusedNames) => {
      const results = resolve(literals, containingFile, redirectedReference, options, containingSourceFile, reusedNames);
      return results.map((result, i) => {
        if (result.resolvedModule) return result;
        const resolvedModule = fallback(literals[i]!.text);
        return resolvedModule ? { ...result, resolvedModule } : result;
      });
    };
  } else {
    // TypeScript 4.x hosts.
    host.resolveModuleNames = (names, containingFile, reusedNames, redirectedReference, options, containingSourceFile) => {
      const results = originalNames(names, containingFile, reusedNames, redirectedReference, options, containingSourceFile);
      return results.map((result, i) => result ?? fallback(names[i]!));
    };
  }
}

/** "may only specify known properties": 2353, and 2561 with a "did you mean" (an option misspelled). */
const UNKNOWN_PROPERTY = new Set([2353, 2561]);

/**
 * Whether Turnlens reports this TypeScript diagnostic itself: an unknown property of the options
 * object (the second argument) of a `testWorkflow(...)` call, which Turnlens's `unknown-option` names
 * with the same suggestion and a quick fix. One problem, one report. Exported for tests.
 */
export function turnlensReports(typescript: TS, sourceFile: ts.SourceFile, diagnostic: ts.Diagnostic): boolean {
  if (!UNKNOWN_PROPERTY.has(diagnostic.code) || diagnostic.start === undefined) return false;
  const start = diagnostic.start;
  const find = (node: ts.Node): ts.Node | undefined =>
    node.getStart(sourceFile) <= start && start < node.getEnd() ? (typescript.forEachChild(node, find) ?? node) : undefined;
  const name = find(sourceFile);
  const property = name?.parent;
  const options = property?.parent;
  const call = options?.parent;
  if (!property || !options || !call || !typescript.isObjectLiteralElementLike(property) || property.name !== name) return false;
  if (!typescript.isObjectLiteralExpression(options) || !typescript.isCallExpression(call) || call.arguments[1] !== options) return false;
  const callee = call.expression;
  const calleeName = typescript.isIdentifier(callee) ? callee.text : typescript.isPropertyAccessExpression(callee) ? callee.name.text : "";
  return calleeName === "testWorkflow";
}

/** The language service with `getSemanticDiagnostics` leaving out what Turnlens reports. */
function withoutTurnlensReported(typescript: TS, service: ts.LanguageService): ts.LanguageService {
  const proxy: ts.LanguageService = Object.create(service);
  proxy.getSemanticDiagnostics = (fileName) => {
    const all = service.getSemanticDiagnostics(fileName);
    const sourceFile = service.getProgram()?.getSourceFile(fileName);
    return sourceFile ? all.filter((diagnostic) => !turnlensReports(typescript, sourceFile, diagnostic)) : all;
  };
  return proxy;
}

/** The plugin factory tsserver calls with its own `typescript`. */
function init(modules: { typescript: TS }): ts.server.PluginModule {
  const typescript = modules.typescript;
  return {
    create(info) {
      const config = (info.config ?? {}) as PluginConfig;
      const typesDir = config.typesDir ?? defaultTypesDir();
      if (!existsSync(typesDir)) {
        info.project?.projectService?.logger?.info(`turnlens-typescript-plugin: no declarations at ${typesDir}`);
        return withoutTurnlensReported(typescript, info.languageService);
      }
      patchHost(typescript, info.languageServiceHost, typesDir);
      info.project?.projectService?.logger?.info(`turnlens-typescript-plugin: served modules resolve to ${typesDir}`);
      return withoutTurnlensReported(typescript, info.languageService);
    },
  };
}

export default init;
