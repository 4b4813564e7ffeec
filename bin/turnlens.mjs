#!/usr/bin/env node
// The `turnlens` command: `turnlens lsp` starts the language server (dist/server.js) for an editor;
// every other command is the CLI (dist/cli.mjs). The dispatch lives here so core never imports server/.
const [command, ...rest] = process.argv.slice(2);

const LSP_USAGE = `Usage: turnlens lsp --stdio | --node-ipc | --socket=<port> | --pipe=<name>

Starts the Turnlens language server, for an editor to talk to: the tests of the open test files
run as you type, and their turns, diagnostics and quick fixes show next to the code (docs/language-server.md).
  --stdio       over stdin and stdout (Neovim, Emacs/eglot, Helix and most other clients)
  --node-ipc    over Node's IPC channel (a client that forks the server, like VS Code's)`;

if (command === "lsp") {
  if (rest.includes("-h") || rest.includes("--help")) {
    process.stdout.write(`${LSP_USAGE}\n`);
  } else if (!rest.some((arg) => arg === "--stdio" || arg === "--node-ipc" || /^--(socket|pipe)=./.test(arg))) {
    process.stderr.write(`turnlens lsp needs a transport: --stdio or --node-ipc\n\n${LSP_USAGE}\n`);
    process.exitCode = 2;
  } else {
    // The server reads its transport from process.argv, as if started as `node dist/server.js --stdio`.
    process.argv.splice(2, 1);
    const { createRequire } = await import("node:module");
    createRequire(import.meta.url)("../dist/server.js");
  }
} else {
  await import("../dist/cli.mjs");
}
