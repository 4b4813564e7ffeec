// The Testing view's folders (extension/vscodeFree/folderTree.ts) without VS Code: files grouped by directory
// below the workspace folder, single-child folder chains shown as one, several workspace folders.
import { describe, expect, test } from "bun:test";
import { filesIn, findFolder, folderId, folderTree, isFolderId, type FolderEntry } from "../../extension/vscodeFree/folderTree.ts";

const ROOT = "file:///work/project";

/** A layout as indented lines: `folder/` for a folder, the file's name for a file. */
function outline(entries: FolderEntry[], depth = 0): string[] {
  return entries.flatMap((entry) =>
    entry.kind === "folder"
      ? [`${"  ".repeat(depth)}${entry.label}/`, ...outline(entry.children, depth + 1)]
      : [`${"  ".repeat(depth)}${entry.uri.slice(entry.uri.lastIndexOf("/") + 1)}`],
  );
}

describe("folder grouping", () => {
  test("files of the same name sit in folders named for their directories, folders before files, each sorted", () => {
    const files = ["review/workflow.test.ts", "a.test.ts", "summarize/workflow.test.ts", "loop/workflow.test.ts", "loop/extra.test.ts"].map((path) => `${ROOT}/${path}`);
    expect(outline(folderTree(files, [ROOT]))).toEqual([
      "loop/",
      "  extra.test.ts",
      "  workflow.test.ts",
      "review/",
      "  workflow.test.ts",
      "summarize/",
      "  workflow.test.ts",
      "a.test.ts",
    ]);
  });

  test("a chain of folders holding one folder each is one item named by the joined path, and a folder holding a file stays its own item", () => {
    const files = [`${ROOT}/examples/review/workflow.test.ts`, `${ROOT}/examples/review/deep/x.test.ts`, `${ROOT}/packages/core/src/test/y.test.ts`];
    const layout = folderTree(files, [ROOT]);
    expect(outline(layout)).toEqual(["examples/review/", "  deep/", "    x.test.ts", "  workflow.test.ts", "packages/core/src/test/", "  y.test.ts"]);
    expect(layout.map((entry) => (entry.kind === "folder" ? entry.id : entry.uri))).toEqual([
      folderId(`${ROOT}/examples/review`),
      folderId(`${ROOT}/packages/core/src/test`),
    ]);
  });

  test("a folder's files are found by its id, in tree order, and folder ids never look like a file or test id", () => {
    const files = [`${ROOT}/b/two.test.ts`, `${ROOT}/b/c/one.test.ts`, `${ROOT}/d.test.ts`];
    const layout = folderTree(files, [ROOT]);
    const folder = findFolder(layout, folderId(`${ROOT}/b`));
    expect(folder && filesIn(folder)).toEqual([`${ROOT}/b/c/one.test.ts`, `${ROOT}/b/two.test.ts`]);
    expect(findFolder(layout, folderId(`${ROOT}/b/c`))?.kind).toBe("folder");
    expect(isFolderId(folderId(`${ROOT}/b`))).toBe(true);
    expect(isFolderId(`${ROOT}/d.test.ts`)).toBe(false);
    expect(isFolderId(`${ROOT}/d.test.ts#a%20b`)).toBe(false);
  });

  test("with several workspace folders each is a folder of its own, named as the workspace names it, and a file under none stays at the top", () => {
    const other = "file:///work/other";
    const files = [`${other}/t/z.test.ts`, `${ROOT}/a.test.ts`, "file:///elsewhere/loose.test.ts"];
    expect(outline(folderTree(files, [ROOT, `${other}/`], ["project", "Other one"]))).toEqual([
      "project/",
      "  a.test.ts",
      "Other one/",
      "  t/",
      "    z.test.ts",
      "loose.test.ts",
    ]);
  });

  test("folder labels are decoded from the uri", () => {
    expect(outline(folderTree([`${ROOT}/my%20tests/a.test.ts`], [ROOT]))).toEqual(["my tests/", "  a.test.ts"]);
  });
});
