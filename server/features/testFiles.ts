// `turnlens/testFiles`: the Test Explorer's files are the ones `turnlens test` would run in each
// workspace folder (core/project/discover.ts with the project's config, its include/exclude), so the
// project keeps that choice in one place. A config file changing on disk is said to the client
// (`turnlens/testFilesChanged`), which asks again.
import { basename, relative, isAbsolute } from "node:path";
import { pathToFileURL } from "node:url";
import type { FileEvent } from "vscode-languageserver";
import { CONFIG_FILE_NAMES } from "../../core/project/configFile.ts";
import { discoverTests } from "../../core/project/discover.ts";
import { TestFilesChangedNotification, TestFilesRequest, type TestFilesParams, type TestFilesResult } from "../protocol.ts";
import type { Server } from "../server.ts";
import { fileOf } from "../state.ts";

const CONFIG_NAMES = new Set<string>([...CONFIG_FILE_NAMES, "package.json"]);

export function register(server: Server): void {
  server.connection.onRequest(
    TestFilesRequest.type,
    server.guardRequest(TestFilesRequest.method, async (params: TestFilesParams): Promise<TestFilesResult> => {
      if (!params || !Array.isArray(params.folders)) throw new Error("turnlens/testFiles takes { folders: string[] } (workspace folder uris)");
      const files = new Set<string>();
      for (const uri of params.folders) {
        const folder = typeof uri === "string" ? fileOf(uri) : undefined;
        if (!folder) throw new Error(`turnlens/testFiles: ${JSON.stringify(uri)} is not a file: uri of a folder`);
        // A turnlens.config.ts is code: in an untrusted workspace it is not run, and every test file is listed.
        const config = server.state.trusted ? await server.configs.ofFolder(folder) : undefined;
        for (const file of (await discoverTests([], folder, { config })).files) {
          // A config above the folder may include paths outside it: the folder shows only its own.
          const inside = relative(folder, file);
          if (inside.startsWith("..") || isAbsolute(inside)) continue;
          files.add(pathToFileURL(file).href);
        }
      }
      return { files: [...files].sort() };
    }),
  );
}

/** Says each project config file among the changes on disk to the client, whose Test Explorer then asks for its files again. */
export function configFilesAmong(server: Server, changes: readonly FileEvent[]): void {
  for (const change of changes) {
    const file = fileOf(change.uri);
    if (!file || file.includes("/node_modules/") || !CONFIG_NAMES.has(basename(file))) continue;
    server.forget("testFilesChanged", server.connection.sendNotification(TestFilesChangedNotification.type, { config: change.uri }));
  }
}
