// `node scripts/checkVsix.mjs` (the end of `npm run package:all`, run by .ci/run): opens each of the
// five .vsix and fails unless it holds its own platform's esbuild binary and no other — checked by
// the path (`extension/node_modules/@esbuild/<target>/bin/esbuild`, `…/esbuild.exe` on Windows) and
// by the executable's header (ELF/Mach-O/PE and the CPU) — declares that target, and carries a
// manifest ready for the Marketplace and Open VSX, whose README images point into the repository,
// and the packages the CLI imports by name (the coverage reports').
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import yauzl from "yauzl";
import { runtimePackages, shippedDependencies, TARGETS, vsixPath } from "./package-vsix.mjs";

const root = resolve(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** Each entry's name, and the contents of the ones `wanted` picks (the binary's first 4 KiB). */
function readZip(path, wanted) {
  return new Promise((resolvePromise, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names = [];
      const contents = new Map();
      zip.on("error", reject);
      zip.on("end", () => resolvePromise({ names, contents }));
      zip.on("entry", (entry) => {
        names.push(entry.fileName);
        if (!wanted(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks = [];
          stream.on("data", (chunk) => chunks.push(chunk));
          stream.on("end", () => {
            contents.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** The platform and CPU an executable is built for, from its header. */
export function executableTarget(bytes) {
  if (bytes.readUInt32BE(0) === 0x7f454c46) {
    const machine = bytes.readUInt16LE(18);
    return `linux-${machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : `machine 0x${machine.toString(16)}`}`;
  }
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = bytes.readUInt32LE(4);
    return `darwin-${cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : `cpu 0x${cpu.toString(16)}`}`;
  }
  if (bytes.toString("latin1", 0, 2) === "MZ") {
    const pe = bytes.readUInt32LE(0x3c);
    if (bytes.toString("latin1", pe, pe + 4) !== "PE\0\0") return "an MZ file that is not PE";
    const machine = bytes.readUInt16LE(pe + 4);
    return `win32-${machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : `machine 0x${machine.toString(16)}`}`;
  }
  return `unknown (starts ${bytes.subarray(0, 4).toString("hex")})`;
}

const failures = [];
for (const target of TARGETS) {
  const path = vsixPath(target);
  const fail = (problem) => failures.push(`${path.slice(root.length + 1)}: ${problem}`);
  if (!existsSync(path)) {
    fail("missing (run `npm run package:all`)");
    continue;
  }
  const binary = `extension/node_modules/@esbuild/${target}/${target.startsWith("win32") ? "esbuild.exe" : "bin/esbuild"}`;
  const { names, contents } = await readZip(
    path,
    (name) => name === binary || name === "extension.vsixmanifest" || name === "extension/package.json" || name === "extension/readme.md",
  );
  const esbuildPackages = [...new Set(names.filter((name) => name.startsWith("extension/node_modules/@esbuild/")).map((name) => name.split("/")[3]))];
  if (!contents.has(binary)) fail(`has no ${binary}`);
  else if (executableTarget(contents.get(binary)) !== target) fail(`${binary} is built for ${executableTarget(contents.get(binary))}`);
  if (esbuildPackages.join() !== target) fail(`carries @esbuild/${esbuildPackages.join(", @esbuild/")}, not only @esbuild/${target}`);
  if (!/TargetPlatform="([^"]+)"/.exec(contents.get("extension.vsixmanifest")?.toString() ?? "")?.[1]?.startsWith(target))
    fail(`its extension.vsixmanifest does not declare TargetPlatform="${target}"`);
  const packed = JSON.parse(contents.get("extension/package.json")?.toString() ?? "{}");
  for (const field of ["publisher", "repository", "license", "icon"]) if (!packed[field]) fail(`its package.json has no ${field}`);
  if (packed.engines?.vscode !== manifest.engines.vscode) fail(`its engines.vscode is ${packed.engines?.vscode}`);
  if (packed.icon && !names.includes(`extension/${packed.icon}`)) fail(`its icon ${packed.icon} is not inside`);
  // The Marketplace and Open VSX show the README from the package: its images must be absolute
  // https links, and each must name a file of the repository (vsce rewrote the relative ones).
  const images = [...(contents.get("extension/readme.md")?.toString() ?? "").matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  if (images.length === 0) fail("its README shows no image");
  const repository = String(packed.repository?.url ?? packed.repository ?? "")
    .replace(/^git\+/, "")
    .replace(/\.git$/, "");
  for (const image of images) {
    const file = image.startsWith(`${repository}/raw/HEAD/`) ? image.slice(`${repository}/raw/HEAD/`.length) : undefined;
    if (!file) fail(`README image ${image} is not a link into ${repository}/raw/HEAD/`);
    else if (!existsSync(join(root, file))) fail(`README image ${image} names ${file}, which is not in the repository`);
  }
  // The CLI imports the coverage reports' packages by name: each, and what it imports, must be inside (.vscodeignore lets them in).
  for (const name of runtimePackages(shippedDependencies()))
    if (!names.includes(`extension/node_modules/${name}/package.json`)) fail(`has no node_modules/${name}, which the CLI imports`);
  const size = statSync(path).size;
  console.log(
    `${path.slice(root.length + 1)}: ${(size / 1024 / 1024).toFixed(2)} MiB (${size} bytes); ${binary} (${executableTarget(contents.get(binary) ?? Buffer.alloc(4))}, ${contents.get(binary)?.length ?? 0} bytes)`,
  );
}
if (failures.length > 0) {
  console.error(`checkVsix: ${failures.length} problem(s):\n${failures.map((failure) => `  ${failure}`).join("\n")}`);
  process.exit(1);
}
console.log(`checkVsix: the ${TARGETS.length} .vsix each hold their own platform's esbuild binary`);
