// `vi.spyOn(ns, "name")` on a namespace import (`import * as ns from "./module"`), as Vitest allows
// it: Vitest's module runner defines a module's exports as configurable getters, which a spy
// replaces. esbuild's namespace objects have fixed getters, and it reads `ns.name` as the binding
// itself, so a file that spies on a namespace gets that namespace through a spyable view instead.
import { registry } from "./served.ts";

const VIEWS = new WeakMap<object, object>();
const KEY = "turnlens:namespaces";

/**
 * A live view of `namespace` whose properties are configurable getters of its exports: a spy can
 * replace one (and `mockRestore` put it back), every other read goes to the module. One view per
 * namespace, so every file that spies on the same module shares it.
 */
function spyable(namespace: object): object {
  const existing = VIEWS.get(namespace);
  if (existing) return existing;
  const replaced = new Map<string | symbol, PropertyDescriptor>();
  const target = Object.create(null) as object;
  Object.defineProperty(target, Symbol.toStringTag, { value: "Module" });
  const own = (key: string | symbol): PropertyDescriptor | undefined => {
    const made = replaced.get(key);
    if (made) return { ...made, configurable: true };
    const original = Reflect.getOwnPropertyDescriptor(namespace, key);
    if (!original) return undefined;
    return { enumerable: original.enumerable ?? true, configurable: true, get: () => Reflect.get(namespace, key) };
  };
  const view: object = new Proxy(target, {
    get(_target, key) {
      if (key === Symbol.toStringTag) return "Module";
      const made = replaced.get(key);
      if (!made) return Reflect.get(namespace, key);
      return made.get ? made.get.call(view) : made.value;
    },
    set(_target, key, value) {
      const made = replaced.get(key);
      if (made?.set) made.set.call(view, value);
      else if (made && "value" in made && made.writable) made.value = value;
      else return false;
      return true;
    },
    has: (_target, key) => replaced.has(key) || Reflect.has(namespace, key),
    ownKeys: () => [...new Set([...Reflect.ownKeys(namespace).filter((key) => key !== Symbol.toStringTag), ...replaced.keys(), Symbol.toStringTag])],
    getOwnPropertyDescriptor(_target, key) {
      if (key === Symbol.toStringTag) return Reflect.getOwnPropertyDescriptor(target, key);
      return own(key);
    },
    defineProperty(_target, key, descriptor) {
      if (key === Symbol.toStringTag || descriptor.configurable === false) return false;
      replaced.set(key, { ...own(key), ...descriptor });
      return true;
    },
    deleteProperty(_target, key) {
      replaced.delete(key);
      return true;
    },
    getPrototypeOf: () => null,
  });
  VIEWS.set(namespace, view);
  return view;
}

const NAMESPACE_IMPORT = /^([ \t]*)import\s+(?:([A-Za-z_$][\w$]*)\s*,\s*)?\*\s+as\s+([A-Za-z_$][\w$]*)\s+from\s+(["'])(\.{1,2}\/[^"'\n]*)\4[ \t]*;?/gm;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The text of a file with each relative namespace import it spies on (`spyOn(ns, …)` in the text)
 * read through the spyable view, on the same line (the source map's lines stay). Any other file,
 * and any other import, is left as it is: esbuild keeps binding them directly.
 */
export function spyableNamespaceImports(text: string): string {
  if (!text.includes("spyOn(") || !text.includes("* as")) return text;
  return text.replace(NAMESPACE_IMPORT, (whole, indent: string, defaultName: string | undefined, name: string, quote: string, spec: string) => {
    if (!new RegExp(`\\bspyOn\\(\\s*${escapeRegExp(name)}\\s*,`).test(text)) return whole;
    registry()[KEY] ??= { spyable };
    const inner = `__turnlensNamespace_${name}`;
    const view = `(globalThis[Symbol.for("turnlens.modules")]?.[${JSON.stringify(KEY)}]?.spyable ?? ((n) => n))(${inner})`;
    return `${indent}import ${defaultName ? `${defaultName}, ` : ""}* as ${inner} from ${quote}${spec}${quote}; const ${name} = ${view};`;
  });
}
