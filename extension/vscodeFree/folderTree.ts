// The Testing view's folders: test files grouped by their directory below the workspace folder, as
// Vitest's and Playwright's trees do, a chain of folders with one child folder each shown as one
// (`examples/review`). No `vscode` import, so it is unit-tested; testController.ts applies it.

/** A folder of the Testing view, or a test file in it (a leaf here: its tests are testTree.ts's). */
export type FolderEntry = { kind: "folder"; id: string; label: string; uri: string; children: FolderEntry[] } | { kind: "file"; uri: string };

// A space never occurs in a TestId or a file uri (both URI-encoded), so this prefix tells folders apart.
const FOLDER_MARK = "folder ";

/** The item id of the folder at `uri`. */
export function folderId(uri: string): string {
  return `${FOLDER_MARK}${uri}`;
}

export function isFolderId(id: string): boolean {
  return id.startsWith(FOLDER_MARK);
}

interface Building {
  uri: string;
  segments: string[];
  folders: Map<string, Building>;
  files: string[];
}

/**
 * The tree of `fileUris` under `roots` (the workspace folders' uris). Files directly in a root sit at
 * the top; with more than one root each root is a folder of its own, named by `rootNames`. A file
 * under no root stays at the top. Folders come before files, each sorted by name.
 */
export function folderTree(fileUris: readonly string[], roots: readonly string[], rootNames: readonly string[] = []): FolderEntry[] {
  const trimmed = roots.map((root) => root.replace(/\/+$/, ""));
  const top: FolderEntry[] = [];
  const builds = trimmed.map((uri): Building => ({ uri, segments: [], folders: new Map(), files: [] }));
  for (const file of fileUris) {
    const index = trimmed.findIndex((root) => file.startsWith(`${root}/`));
    const build = builds[index];
    if (!build) {
      top.push({ kind: "file", uri: file });
      continue;
    }
    const parts = file.slice((trimmed[index] ?? "").length + 1).split("/");
    let folder = build;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { uri: `${folder.uri}/${part}`, segments: [part], folders: new Map(), files: [] }));
      folder = next;
    }
    folder.files.push(file);
  }
  const multiRoot = builds.length > 1;
  const rooted = builds.flatMap((build, index) => {
    const children = entriesOf(build);
    if (!multiRoot) return children;
    if (children.length === 0) return [];
    return [
      { kind: "folder" as const, id: folderId(build.uri), label: rootNames[index] ?? decode(build.uri.slice(build.uri.lastIndexOf("/") + 1)), uri: build.uri, children },
    ];
  });
  return [...rooted, ...top.sort(byName)];
}

function entriesOf(build: Building): FolderEntry[] {
  const folders = [...build.folders.values()].map((folder) => {
    // One child folder and no file: shown as one item, `a/b`.
    let current = folder;
    const segments = [...folder.segments];
    while (current.files.length === 0 && current.folders.size === 1) {
      const [only] = current.folders.values();
      if (!only) break;
      segments.push(...only.segments);
      current = only;
    }
    return { kind: "folder" as const, id: folderId(current.uri), label: decode(segments.join("/")), uri: current.uri, children: entriesOf(current) };
  });
  const files = build.files.map((uri) => ({ kind: "file" as const, uri }));
  return [...folders.sort(byName), ...files.sort(byName)];
}

function byName(left: FolderEntry, right: FolderEntry): number {
  const name = (entry: FolderEntry) => (entry.kind === "folder" ? entry.label : decode(entry.uri.slice(entry.uri.lastIndexOf("/") + 1)));
  return name(left) < name(right) ? -1 : name(left) > name(right) ? 1 : 0;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The file uris inside a folder entry, in tree order. */
export function filesIn(entry: FolderEntry): string[] {
  return entry.kind === "file" ? [entry.uri] : entry.children.flatMap(filesIn);
}

/** The folder entry of `id` in `entries`, at any depth. */
export function findFolder(entries: readonly FolderEntry[], id: string): FolderEntry | undefined {
  for (const entry of entries) {
    if (entry.kind !== "folder") continue;
    if (entry.id === id) return entry;
    const found = findFolder(entry.children, id);
    if (found) return found;
  }
  return undefined;
}
