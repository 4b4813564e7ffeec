// The bundler rewrites `import.meta.url` and friends in a file's code only (core/execution/codeOnly.ts):
// a test named "import.meta.dirname", a comment or a regular expression keep their text.
import { describe, expect, test } from "bun:test";
import { replaceInCode } from "../../core/execution/codeOnly.ts";

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
