// ARCHITECTURE.md's code map against the files: every source file under the mapped folders is named
// in the map, and every file the map names exists, so the map cannot drift from the code.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");
/** The folders whose every source file the map names. */
const MAPPED = ["core", "server", "extension", "tsPlugin", "bin", "scripts"];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** A top-level bullet of the map: the folder it is about (its first `folder/` or `folder/file`) and the file names it holds. */
interface Bullet {
  folder: string;
  names: string[];
}

/** The "## Code map" section's top-level bullets; a bullet's continuation lines are part of it. */
function bulletsOf(architecture: string): Bullet[] {
  const start = architecture.indexOf("\n## Code map\n");
  if (start < 0) throw new Error('ARCHITECTURE.md has no "## Code map" section');
  const rest = architecture.slice(start + "\n## Code map\n".length);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const texts: string[] = [];
  for (const line of section.split("\n")) {
    if (line.startsWith("- ")) texts.push(line);
    else if (texts.length > 0 && line.trim() !== "") texts[texts.length - 1] += ` ${line.trim()}`;
  }
  return texts.map((text) => {
    const tokens = [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? "");
    const first = tokens.find((token) => token.includes("/")) ?? "";
    const folder = first.endsWith("/") ? first : first.slice(0, first.lastIndexOf("/") + 1);
    return { folder, names: tokens.filter((token) => SOURCE.test(token)) };
  });
}

/** The repository's top folders: a name that starts with one is a path from the root, any other is from its bullet's folder. */
const TOP_FOLDERS = [...MAPPED, "dist", "test", "examples", "docs", "bench", "syntaxes", "images"];

function fromRoot(name: string, folder: string): string {
  return TOP_FOLDERS.includes(name.split("/")[0] ?? "") ? name : folder + name;
}

/** Whether `name`, written in the bullet about `folder`, names `file`: by its path (from the root or the folder), or a bare file name of a file under the folder. */
function names(name: string, folder: string, file: string): boolean {
  if (file === fromRoot(name, folder)) return true;
  return !name.includes("/") && file.startsWith(folder) && basename(file) === name;
}

/** The files no bullet of the map names. */
function unnamedFiles(architecture: string, files: string[]): string[] {
  const bullets = bulletsOf(architecture);
  return files.filter((file) => !bullets.some((bullet) => bullet.names.some((name) => names(name, bullet.folder, file))));
}

/** The names in the map, of files in the mapped folders, that name no file (renamed or removed, the map not updated). */
function namesOfNoFile(architecture: string, files: string[]): string[] {
  return bulletsOf(architecture).flatMap((bullet) =>
    bullet.names
      .filter((name) => MAPPED.includes(fromRoot(name, bullet.folder).split("/")[0] ?? ""))
      .filter((name) => !files.some((file) => names(name, bullet.folder, file)))
      .map((name) => `${bullet.folder} … \`${name}\``),
  );
}

function sourceFiles(): string[] {
  return MAPPED.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => SOURCE.test(file) && !file.endsWith(".d.ts"))
      .map((file) => `${folder}/${file}`),
  ).sort();
}

const ARCHITECTURE = readFileSync(join(ROOT, "ARCHITECTURE.md"), "utf8");

describe("ARCHITECTURE.md's code map", () => {
  test("names every source file under core/, server/, extension/, tsPlugin/, bin/ and scripts/", () => {
    expect(unnamedFiles(ARCHITECTURE, sourceFiles())).toEqual([]);
  });

  test("names no file that does not exist", () => {
    expect(namesOfNoFile(ARCHITECTURE, sourceFiles())).toEqual([]);
  });

  test("the check sees the files at all, so an empty answer means something", () => {
    const files = sourceFiles();
    expect(files).toContain("core/workflow/engine.ts");
    expect(files).toContain("server/features/hover.ts");
    expect(files).toContain("bin/turnlens.mjs");
    expect(files.length).toBeGreaterThan(150);
  });

  test("a file left out of the map is listed, and a bare name counts only under its bullet's folder", () => {
    const map = [
      "# Architecture",
      "",
      "## Code map",
      "",
      "- `core/runner/` — `pool.ts` (the pool),",
      "  `worker.ts`; `core/testing/trace.ts` by its full path.",
      "- `server/` — `server.ts`, `features/hover.ts`, `protocol.ts`.",
      "",
      "## Invariants",
      "",
      "- `core/runner/report.ts` is not in the code map.",
    ].join("\n");
    const files = [
      "core/runner/pool.ts",
      "core/runner/worker.ts",
      "core/runner/protocol.ts",
      "core/runner/report.ts",
      "core/testing/trace.ts",
      "server/server.ts",
      "server/features/hover.ts",
      "server/protocol.ts",
    ];
    expect(unnamedFiles(map, files)).toEqual(["core/runner/protocol.ts", "core/runner/report.ts"]);
    expect(namesOfNoFile(map, files.slice(1))).toEqual(["core/runner/ … `pool.ts`"]);
  });
});

/** The rooms: every folder under core/ and server/ (one level), server/ and extension/ themselves, their subfolders, and tsPlugin/. */
function rooms(): string[] {
  const below = (folder: string) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${folder}/${entry.name}/`);
  return [...below("core"), "server/", ...below("server"), "extension/", ...below("extension"), "tsPlugin/"].filter((room) => !room.endsWith("/fixtures/"));
}

/** Each `### room/` heading of the "## Rooms" section, with its paragraph's number of lines. */
function roomParagraphs(architecture: string): Map<string, number> {
  const start = architecture.indexOf("\n## Rooms\n");
  if (start < 0) throw new Error('ARCHITECTURE.md has no "## Rooms" section');
  const rest = architecture.slice(start + "\n## Rooms\n".length);
  const section = rest.slice(0, rest.search(/\n## /));
  const paragraphs = new Map<string, number>();
  for (const block of section.split(/\n### /).slice(1)) {
    const [heading, ...lines] = block.split("\n");
    paragraphs.set(heading!.trim(), lines.filter((line) => line.trim() !== "").length);
  }
  return paragraphs;
}

describe("ARCHITECTURE.md's rooms", () => {
  test("every room opens with a paragraph of three to six lines, and every paragraph is a room's", () => {
    const paragraphs = roomParagraphs(ARCHITECTURE);
    expect(rooms().filter((room) => !paragraphs.has(room))).toEqual([]);
    expect([...paragraphs.keys()].filter((room) => !rooms().includes(room))).toEqual([]);
    expect([...paragraphs].filter(([, lines]) => lines < 3 || lines > 6)).toEqual([]);
  });

  test("a room without a paragraph, a paragraph of no room and one too long are each found", () => {
    const map = ["## Rooms", "", "### core/gone/", "a", "b", "c", "", "### server/", "1", "2", "3", "4", "5", "6", "7", "", "## Code map"].join("\n");
    expect([...roomParagraphs(`\n${map}`)]).toEqual([
      ["core/gone/", 3],
      ["server/", 7],
    ]);
  });
});
