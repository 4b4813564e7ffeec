// The bundler rewrites `import.meta.url` and friends in a file's code only (core/execution/codeOnly.ts):
// a test named "import.meta.dirname", a comment or a regular expression keep their text.
import { describe, expect, test } from "bun:test";
import { codeAt, replaceInCode } from "../../core/execution/codeOnly.ts";
import { expandImportMetaGlob } from "../../core/execution/importMetaGlob.ts";
import { runtimeImportCall, runtimeImports } from "../../core/execution/dynamicImportCalls.ts";

const rewrite = (text: string) => replaceInCode(text, /\bimport\.meta\.url\b/g, () => "URL");

describe("replaceInCode", () => {
  test("a string that says import.meta.url keeps it; the code beside it is rewritten", () => {
    expect(rewrite(`it("import.meta.url", () => import.meta.url)`)).toBe(`it("import.meta.url", () => URL)`);
    expect(rewrite(`it('import.meta.url', () => import.meta.url)`)).toBe(`it('import.meta.url', () => URL)`);
  });

  test("a template's text keeps it, its ${} expressions (with braces of their own) are rewritten", () => {
    const text = "const a = `at ${import.meta.url} import.meta.url ${ {k: 1}.k + import.meta.url }`";
    expect(rewrite(text)).toBe("const a = `at ${URL} import.meta.url ${ {k: 1}.k + URL }`");
  });

  test("comments and regular expressions keep it; a division is code", () => {
    expect(rewrite("// import.meta.url\nimport.meta.url /* import.meta.url */")).toBe("// import.meta.url\nURL /* import.meta.url */");
    expect(rewrite("const re = /'import.meta.url[/]/; const d = a / b / import.meta.url")).toBe("const re = /'import.meta.url[/]/; const d = a / b / URL");
    expect(rewrite("return /'/.test(import.meta.url)")).toBe("return /'/.test(URL)");
  });

  test("a text the scanner cannot read (an unclosed string) is rewritten everywhere, as before", () => {
    expect(rewrite(`const s = "import.meta.url\nimport.meta.url`)).toBe(`const s = "URL\nURL`);
  });
});

describe("runtimeImports", () => {
  const call = runtimeImportCall("/p/a.ts");

  test("import(name) in code goes to the runtime's import; a string's, a template's text and a comment's are left as written", () => {
    expect(runtimeImports("/p/a.ts", "const m = await import(name);")).toBe(`const m = await ${call}name);`);
    const written = "const file = `await import(name)`; // import(name)\nconst s = 'import(name)';";
    expect(runtimeImports("/p/a.ts", written)).toBe(written);
  });

  test("import of a string or of a template starting ./ is esbuild's; a template starting otherwise, or after a comment, is the runtime's", () => {
    expect(runtimeImports("/p/a.ts", 'import("./x.ts"); import(`./${n}.ts`)')).toBe('import("./x.ts"); import(`./${n}.ts`)');
    expect(runtimeImports("/p/a.ts", "import(`${base}/x.js`)")).toBe(`${call}\`\${base}/x.js\`)`);
    expect(runtimeImports("/p/a.ts", "import(/* @vite-ignore */ name)")).toBe(`${call}/* @vite-ignore */ name)`);
  });
});

describe("codeAt", () => {
  test("an index in a string, a template's text, a comment or a regex is not code; one in a template's ${} is", () => {
    const text = 'a("s"); `t ${b} t`; // c\n/r/.test(d)';
    const inCode = codeAt(text);
    const at = (fragment: string) => inCode(text.indexOf(fragment));
    expect([at("a("), at("s"), at("t "), at("b}"), at("// c"), at("r/"), at("d)")]).toEqual([true, false, false, true, false, false, true]);
  });

  test("import.meta.glob written in a string or a comment is left as written", async () => {
    const text = "const s = \"import.meta.glob('./x/*.ts')\"; // import.meta.glob('./y')\n";
    expect(await expandImportMetaGlob(text, "/nowhere/a.ts")).toBe(text);
  });
});
