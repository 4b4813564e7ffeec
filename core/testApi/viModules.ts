// Module mocks at run time, one test file at a time: `vi.mock`, `vi.doMock`, `vi.unmock`,
// `vi.importActual`, `vi.importMock`, `vi.hoisted` and bun's `mock.module`, over @vitest/mocker's
// registry and automocker. The bundle (core/execution/moduleMocks.ts) sends every import of a
// mocked module here, through the table its file declares first (`forFile`).
import { AutomockedModule, type AutospiedModule, type ManualMockedModule, MockerRegistry, mockObject, type RedirectedModule } from "@vitest/mocker";
import { createMockInstance } from "@vitest/spy";

type ModuleRecord = Record<string | symbol, unknown>;

/** One module a test file names in a mock call: as written, where it resolved, and how to load the real one. */
export interface MockTableEntry {
  specifier: string;
  id: string;
  actual: () => Promise<ModuleRecord>;
  /** Its file in a `__mocks__` folder: what a mock without a factory gives (core/execution/mockFolders.ts). */
  redirect?: () => Promise<ModuleRecord>;
  /** Why this path cannot be mocked (a served name, a module not found). */
  error?: string;
}

type Factory = (importOriginal: () => Promise<unknown>) => unknown;
type Mocked = ManualMockedModule | AutomockedModule | AutospiedModule | RedirectedModule;

class FileMocks {
  /** The paths of the file whose mock calls run now (the last table declared: a setup file's, then the test file's). */
  bySpecifier = new Map<string, MockTableEntry>();
  readonly byId = new Map<string, MockTableEntry>();
  /** Whether the test file's own table was declared: a setup file of the next test file starts new mocks. */
  testFileStarted = false;
  readonly registry = new MockerRegistry();
  /** Automocked modules already made, per registration (a new vi.mock makes a new one). */
  readonly automocked = new WeakMap<Mocked, Promise<ModuleRecord>>();
  /** Each evaluated proxy's setter of its exports, by id: bun's mock.module replaces them in place. */
  readonly binders = new Map<string, Array<(module: ModuleRecord) => void>>();

  constructor(
    readonly file: string,
    entries: readonly MockTableEntry[],
  ) {
    this.declare(entries);
  }

  /** A file's table: its paths are the ones mock calls name from now on; its modules join the bundle's. */
  declare(entries: readonly MockTableEntry[]): void {
    this.bySpecifier = new Map();
    for (const entry of entries) {
      this.bySpecifier.set(entry.specifier, entry);
      if (entry.error === undefined) this.byId.set(entry.id, entry);
    }
  }
}

let current: FileMocks | undefined;

function fileMocks(what: string): FileMocks {
  if (!current) {
    throw new Error(
      `${what}: turnlens routes module mocks through the test file's bundle, and this file's bundle has none (a mock's path must be a string literal in the test file itself)`,
    );
  }
  return current;
}

function entryOf(what: string, path: unknown): MockTableEntry {
  if (typeof path !== "string") throw new TypeError(`${what} expects a string path, but received a ${typeof path}`);
  const mocks = fileMocks(`${what}("${path}")`);
  const entry = mocks.bySpecifier.get(path);
  if (!entry) {
    throw new Error(
      `${what}("${path}"): turnlens routes module mocks through the test file's bundle, so the path must be written as a string literal in a mock call of the test file itself`,
    );
  }
  if (entry.error !== undefined) throw new Error(`${what}("${path}"): ${entry.error}`);
  return entry;
}

const globalConstructors = { Object, Function, RegExp, Array, Map };

function automock(mocks: FileMocks, mock: Mocked, entry: MockTableEntry, type: "automock" | "autospy"): Promise<ModuleRecord> {
  let made = mocks.automocked.get(mock);
  if (!made) {
    made = entry.actual().then((actual) => {
      const exports = Object.create(null) as ModuleRecord;
      Object.defineProperty(exports, Symbol.toStringTag, { value: "Module", configurable: true, writable: true });
      // A bundled module's namespace is an object of getters; the automocker mocks a module's values.
      const values = Object.create(null) as ModuleRecord;
      Object.defineProperty(values, Symbol.toStringTag, { value: "Module" });
      for (const key of Object.keys(actual)) values[key] = actual[key];
      return mockObject({ type, globalConstructors, createMockInstance }, values, exports) as ModuleRecord;
    });
    mocks.automocked.set(mock, made);
  }
  return made;
}

/** The module `id` is for this file now: the mock registered for it, or the real one. */
async function moduleFor(mocks: FileMocks, entry: MockTableEntry): Promise<ModuleRecord> {
  const mock = mocks.registry.getById(entry.id) as Mocked | undefined;
  if (!mock) return entry.actual();
  if (mock.type === "manual") return (await mock.resolve()) as ModuleRecord;
  if (mock.type === "redirect") return entry.redirect ? entry.redirect() : entry.actual();
  return automock(mocks, mock, entry, mock.type);
}

/** Gives every proxy of a mocked module the module it stands for now (vi.resetModules). */
function rebindAll(mocks: FileMocks): void {
  for (const [id, binders] of mocks.binders) {
    const entry = mocks.byId.get(id);
    if (!entry || binders.length === 0) continue;
    const apply = (module: unknown) => {
      for (const bind of binders) bind(module as ModuleRecord);
    };
    const mock = mocks.registry.getById(id) as Mocked | undefined;
    // A factory that returns its module (not a promise) is applied before the next line of the test runs.
    const now = mock?.type === "manual" ? mock.resolve() : moduleFor(mocks, entry);
    if (now && typeof (now as PromiseLike<unknown>).then === "function") (now as Promise<unknown>).then(apply, () => {});
    else apply(now);
  }
}

/** As Vitest gives a factory's module to an import: a name the factory did not return throws. */
function strictModule(raw: string, module: ModuleRecord): ModuleRecord {
  return new Proxy(module, {
    get(target, key) {
      if (key === "then" || typeof key === "symbol" || key === "__esModule" || key in target) return target[key];
      throw new Error(
        `[vitest] No "${String(key)}" export is defined on the "${raw}" mock. Did you forget to return it from "vi.mock"?\nIf you need to partially mock a module, you can use "importOriginal" helper inside.`,
      );
    },
  });
}

function register(what: string, path: unknown, factoryOrOptions?: Factory | { spy?: boolean }): { mocks: FileMocks; entry: MockTableEntry; mock: Mocked } {
  const entry = entryOf(what, path);
  const mocks = fileMocks(what);
  let mock: Mocked;
  if (typeof factoryOrOptions === "function") {
    const importOriginal = () => entry.actual();
    mock = mocks.registry.register("manual", entry.specifier, entry.id, entry.id, () => factoryOrOptions(importOriginal)) as Mocked;
  } else if (factoryOrOptions?.spy) {
    mock = mocks.registry.register("autospy", entry.specifier, entry.id, entry.id);
  } else {
    // Without a factory, a `__mocks__` file next to the module (or at the root, for a package) is the mock, as under Vitest.
    mock = entry.redirect
      ? mocks.registry.register("redirect", entry.specifier, entry.id, entry.id, entry.id)
      : mocks.registry.register("automock", entry.specifier, entry.id, entry.id);
  }
  return { mocks, entry, mock };
}

/** The argument vi.mock takes besides its path: a factory given `importOriginal`, or `{ spy: true }`. */
export type ModuleFactory = (importOriginal: <T = ModuleRecord>() => Promise<T>) => unknown;

/** vi's module functions (Vitest's names and meanings; docs/vitest.md, Module mocks). */
export const viModules = {
  /** Hoisted above the imports: the module is replaced for every import of this file's bundle. */
  mock(path: string | Promise<unknown>, factory?: ModuleFactory | { spy?: boolean }): void {
    register("vi.mock", path, factory as Factory | { spy?: boolean } | undefined);
  },
  /** Hoisted: the module is the real one again. */
  unmock(path: string | Promise<unknown>): void {
    fileMocks(`vi.unmock("${String(path)}")`).registry.deleteById(entryOf("vi.unmock", path).id);
  },
  /** Not hoisted: the imports that follow get the mock. With `using`, the block's end undoes it (Vitest's disposable). */
  doMock(path: string | Promise<unknown>, factory?: ModuleFactory | { spy?: boolean }): Partial<Disposable> {
    register("vi.doMock", path, factory as Factory | { spy?: boolean } | undefined);
    const undo: Partial<Disposable> = {};
    if (Symbol.dispose) undo[Symbol.dispose] = () => viModules.doUnmock(path);
    return undo;
  },
  /** Not hoisted: the imports that follow get the real module. */
  doUnmock(path: string | Promise<unknown>): void {
    fileMocks(`vi.doUnmock("${String(path)}")`).registry.deleteById(entryOf("vi.doUnmock", path).id);
  },
  /**
   * Vitest evaluates again the modules imported after it; a bundle's modules run once, so instead each
   * module already imported that imports a mocked one is given what that module is now (the mock
   * registered since, or the real module): at once for a factory's module, when loaded for others.
   */
  resetModules<Self>(this: Self): Self {
    if (current) rebindAll(current);
    return this;
  },
  /** Hoisted with the mocks: its value is its factory's, there for the mocks' factories to use. */
  hoisted<T>(factory: () => T): T {
    if (typeof factory !== "function") throw new TypeError(`"vi.hoisted" factory must be a function, but received a ${typeof factory}`);
    return factory();
  },
  /** The real module, mocked or not. */
  importActual<T = ModuleRecord>(path: string): Promise<T> {
    return entryOf("vi.importActual", path).actual() as Promise<T>;
  },
  /** The module as its mock: the registered one, else every export automocked. */
  async importMock<T = ModuleRecord>(path: string): Promise<T> {
    const entry = entryOf("vi.importMock", path);
    const mocks = fileMocks("vi.importMock");
    const mock = mocks.registry.getById(entry.id) as Mocked | undefined;
    if (mock?.type === "manual") return strictModule(entry.specifier, (await mock.resolve()) as ModuleRecord) as T;
    if ((mock === undefined || mock.type === "redirect") && entry.redirect) return (await entry.redirect()) as T;
    return (await automock(
      mocks,
      mock && mock.type !== "redirect" ? mock : new AutomockedModule(entry.specifier, entry.id, entry.id),
      entry,
      mock?.type === "autospy" ? "autospy" : "automock",
    )) as T;
  },
};

/**
 * bun's `mock.module(path, factory)`: not hoisted; a later import gets the factory's module, and a
 * module already imported has the exports the factory returns replaced in place, as under Bun.
 */
export function mockModule(path: string, factory: () => unknown): void {
  if (typeof factory !== "function") throw new TypeError(`mock.module("${path}") needs a factory function`);
  const { mocks, entry, mock } = register("mock.module", path, () => factory());
  const binders = mocks.binders.get(entry.id);
  if (!binders || binders.length === 0) return;
  const apply = (module: unknown) => {
    for (const bind of binders) bind(module as ModuleRecord);
  };
  const resolved = (mock as ManualMockedModule).resolve();
  if (resolved && typeof (resolved as PromiseLike<unknown>).then === "function") (resolved as Promise<unknown>).then(apply, () => {});
  else apply(resolved);
}

/** What a bundle's generated code calls (moduleMocks.ts writes it; it reads this through the served registry). */
export const moduleMocks = {
  /** Starts a test file's mocks: what the file names in its mock calls. */
  forFile(file: string, entries: readonly MockTableEntry[]): void {
    // The setup files that ran first in this bundle registered their mocks (forSetupFile): they hold for this file too.
    if (current && !current.testFileStarted) current.declare(entries);
    else current = new FileMocks(file, entries);
    current.testFileStarted = true;
  },
  /** A setup file's mocks, run in the bundle before its test file: registered in the mocks that test file then starts with. */
  forSetupFile(file: string, entries: readonly MockTableEntry[]): void {
    if (current && !current.testFileStarted) current.declare(entries);
    else current = new FileMocks(file, entries);
  },
  /** A proxy module's exports when it is first imported: the mock or the real module. */
  load(id: string): Promise<ModuleRecord> {
    const mocks = fileMocks("import");
    const entry = mocks.byId.get(id);
    if (!entry) throw new Error(`turnlens: no mock table entry for ${id}`);
    return moduleFor(mocks, entry);
  },
  /** A proxy's setter of its exports, for bun's mock.module after the import. */
  bind(id: string, setter: (module: ModuleRecord) => void): void {
    const mocks = current;
    if (!mocks) return;
    let binders = mocks.binders.get(id);
    if (!binders) mocks.binders.set(id, (binders = []));
    binders.push(setter);
  },
  /**
   * An `import(name)` whose name is known only when it runs, in a module of a bundle that mocks: a
   * mocked module's name gets what the mock call gave it, any other name `native` (the module's own import).
   */
  computedImport(native: (name: unknown) => Promise<unknown>): (name: unknown) => Promise<unknown> {
    return (name) => {
      const mocks = current;
      if (!mocks || typeof name !== "string") return native(name);
      const entry = mocks.bySpecifier.get(name) ?? mocks.byId.get(name) ?? mocks.byId.get(name.startsWith("node:") ? name : `node:${name}`);
      if (!entry || entry.error !== undefined) return native(name);
      return moduleFor(mocks, entry).then((module) =>
        (mocks.registry.getById(entry.id) as Mocked | undefined)?.type === "manual" ? strictModule(name, module) : module,
      );
    };
  },
  /** A test file's `import("x")` of a mocked module, asked at the time of the call (vi.doMock). */
  async dynamicImport(specifier: string): Promise<ModuleRecord> {
    const mocks = fileMocks(`import("${specifier}")`);
    const entry = mocks.bySpecifier.get(specifier);
    if (!entry) throw new Error(`turnlens: no mock table entry for ${specifier}`);
    const module = await moduleFor(mocks, entry);
    const mock = mocks.registry.getById(entry.id) as Mocked | undefined;
    return mock?.type === "manual" ? strictModule(specifier, module) : module;
  },
};

/** Ends a test file's mocks (the runner calls it when a file ends): the next file starts with none. */
export function resetModuleMocks(): void {
  current = undefined;
}
