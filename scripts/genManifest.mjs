// Writes the VS Code client's keys of package.json (scripts/manifest.ts): `contributes.configuration`
// from server/settings.ts, the commands from extension/vscodeFree/commands.ts, languages, grammars, activation.
// Every other key is kept as it is. `node scripts/genManifest.mjs --check` only says whether it is in sync.
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const temp = mkdtempSync(join(tmpdir(), "turnlens-manifest-"));
try {
  // scripts/manifest.ts is TypeScript importing TypeScript: bundle it to run it on plain Node.
  const outfile = join(temp, "manifest.mjs");
  await build({ entryPoints: [join(root, "scripts/manifest.ts")], outfile, bundle: true, platform: "node", format: "esm", logLevel: "warning" });
  const { withClientManifest } = await import(pathToFileURL(outfile).href);
  const path = join(root, "package.json");
  const before = readFileSync(path, "utf8");
  const after = `${JSON.stringify(withClientManifest(JSON.parse(before)), null, 2)}\n`;
  if (process.argv.includes("--check")) {
    if (before !== after) {
      console.error("package.json is out of date: run `node scripts/genManifest.mjs`");
      process.exitCode = 1;
    }
  } else if (before !== after) {
    writeFileSync(path, after);
    console.log("package.json: the client's keys were updated");
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}
