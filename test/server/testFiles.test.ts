// `turnlens/testFiles`: the Test Explorer's files are the ones `turnlens test` finds with the
// project's config (include/exclude), asked again when a config file changes on disk.
import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { TestFilesChangedNotification, TestFilesRequest, type TestFilesResult } from "../../server/protocol.ts";
import { tempProject } from "../runner/harness.ts";
import { TestServer } from "./harness.ts";

let server: TestServer | undefined;
let project: { dir: string; remove(): void } | undefined;
afterEach(() => {
  server?.dispose();
  project?.remove();
});

const TEST = 'import { test } from "turnlens/testing";\ntest("x", () => {});\n';
const uriIn = (dir: string) => (name: string) => pathToFileURL(join(dir, name)).href;

function layout(config: object): Record<string, string> {
  return {
    "turnlens.config.json": JSON.stringify(config),
    "tests/a.test.ts": TEST,
    "tests/fixtures/broken.test.ts": TEST,
    "tests/deep/b.spec.mjs": TEST,
    "tests/c.slow.test.ts": TEST,
    "e2e/flow.test.ts": TEST,
    "scripts/tool.test.ts": TEST,
    "tests/helper.ts": "export const x = 1;\n",
  };
}

describe("the Test Explorer's test files come from the server", () => {
  test("the files are the config's include folders without what its exclude globs cover", async () => {
    project = tempProject(layout({ include: ["tests/", "e2e/"], exclude: ["tests/fixtures/**", "**/*.slow.test.ts"] }));
    server = await TestServer.started();
    const result = await server.request<TestFilesResult>(TestFilesRequest.method, { folders: [pathToFileURL(project.dir).href] });
    expect(result.files).toEqual(["e2e/flow.test.ts", "tests/a.test.ts", "tests/deep/b.spec.mjs"].map(uriIn(project.dir)));
  });

  test("after the config file changes the answer follows it, and the client is told to ask again", async () => {
    project = tempProject(layout({ include: ["tests/"], exclude: ["tests/fixtures/**"] }));
    server = await TestServer.started();
    const folders = [pathToFileURL(project.dir).href];
    const before = await server.request<TestFilesResult>(TestFilesRequest.method, { folders });
    expect(before.files).toEqual(["tests/a.test.ts", "tests/c.slow.test.ts", "tests/deep/b.spec.mjs"].map(uriIn(project.dir)));

    const config = join(project.dir, "turnlens.config.json");
    writeFileSync(config, JSON.stringify({ include: ["scripts/", "tests/deep/"], exclude: ["**/*.spec.mjs"], testTimeout: 1000 }));
    const from = server.received.length;
    server.client.sendNotification("workspace/didChangeWatchedFiles", { changes: [{ uri: pathToFileURL(config).href, type: 2 }] });
    expect(await server.waitFor<{ config: string }>(TestFilesChangedNotification.method, () => true, from)).toEqual({ config: pathToFileURL(config).href });
    const after = await server.request<TestFilesResult>(TestFilesRequest.method, { folders });
    expect(after.files).toEqual(["scripts/tool.test.ts"].map(uriIn(project.dir)));
  });

  test("without a config every test file of the folder is listed, outside node_modules, dist and dot-folders", async () => {
    project = tempProject({ "a.test.ts": TEST, "src/b.test.ts": TEST, "dist/c.test.ts": TEST, ".cache/d.test.ts": TEST, "node_modules/p/e.test.ts": TEST });
    server = await TestServer.started();
    const result = await server.request<TestFilesResult>(TestFilesRequest.method, { folders: [pathToFileURL(project.dir).href] });
    expect(result.files).toEqual(["a.test.ts", "src/b.test.ts"].map(uriIn(project.dir)));
  });

  test("a request without folders is refused with an error naming what it takes", async () => {
    server = await TestServer.started();
    await expect(server.request(TestFilesRequest.method, { folder: "file:///x" })).rejects.toThrow(
      "turnlens/testFiles takes { folders: string[] } (workspace folder uris)",
    );
  });
});
