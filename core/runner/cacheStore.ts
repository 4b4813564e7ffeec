// Where `--cache` keeps its entries: a folder (`node_modules/.cache/turnlens` unless given one), and
// optionally a remote cache speaking Bazel's simple HTTP cache protocol (`GET`/`PUT` of
// `<url>/ac/<sha256>`), so that an existing cache server, or a WebDAV server, keeps them for every machine.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CacheStore {
  /** How a note names it: the folder, or the URL. */
  readonly name: string;
  /** The entry under `key` (64 hex characters), or undefined when there is none. Rejects when the store cannot be asked. */
  get(key: string): Promise<string | undefined>;
  put(key: string, text: string): Promise<void>;
}

/** The folder `--cache` keeps entries in unless `--cache.dir` names one, as Babel's and Vite's caches go: within the project, out of its sources. */
export const DEFAULT_CACHE_FOLDER = "node_modules/.cache/turnlens";

/** A folder: an entry a file under `ac/`, written to a temporary name and renamed, so a reader never sees half of one. */
export class FolderStore implements CacheStore {
  constructor(readonly name: string) {}
  async get(key: string): Promise<string | undefined> {
    try {
      return readFileSync(join(this.name, "ac", key), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }
  async put(key: string, text: string): Promise<void> {
    const folder = join(this.name, "ac");
    mkdirSync(folder, { recursive: true });
    const scratch = join(folder, `${key}.${process.pid}.tmp`);
    writeFileSync(scratch, text);
    renameSync(scratch, join(folder, key));
  }
}

/** How long one request to a remote cache may take before the run goes on without it. */
const REMOTE_TIMEOUT_MS = 10_000;

/** Bazel's simple HTTP cache: `GET <url>/ac/<key>` (404: none), `PUT <url>/ac/<key>`. */
export class HttpStore implements CacheStore {
  readonly name: string;
  constructor(url: string) {
    this.name = url.replace(/\/+$/, "");
  }
  async get(key: string): Promise<string | undefined> {
    const response = await fetch(`${this.name}/ac/${key}`, { signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`GET ${this.name}/ac/${key.slice(0, 12)}… answered ${response.status} ${response.statusText}`);
    return await response.text();
  }
  async put(key: string, text: string): Promise<void> {
    const response = await fetch(`${this.name}/ac/${key}`, { method: "PUT", body: text, signal: AbortSignal.timeout(REMOTE_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`PUT ${this.name}/ac/${key.slice(0, 12)}… answered ${response.status} ${response.statusText}`);
  }
}
