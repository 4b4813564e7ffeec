#!/usr/bin/env node
// The `turnlens` command: `turnlens lsp` starts the language server (dist/server.js) for an editor;
// every other command is the CLI (dist/cli.mjs). The dispatch lives here so core never imports server/.
const [command, ...rest] = process.argv.slice(2);

const LSP_USAGE = `Usage: turnlens lsp --stdio | --node-ipc | --socket=<port> | --pipe=<path>

Starts the Turnlens language server, for an editor to talk to: the tests of the open test files
run as you type, and their turns, diagnostics and quick fixes show next to the code (docs/language-server.md).
  --stdio           over stdin and stdout (Neovim, Emacs/eglot, Helix and most other clients)
  --node-ipc        over Node's IPC channel (a client that forks the server, like VS Code's)
  --socket=<port>   over TCP: the server connects to 127.0.0.1:<port>, where the client listens
                    (VS Code's TransportKind.socket); it does not listen itself
  --pipe=<path>     over the Unix socket or named pipe <path>, where the client listens
                    (VS Code's TransportKind.pipe)`;

/** What is wrong with the transport the arguments give, or undefined when they give one. */
function transportProblem(args) {
  for (const [index, arg] of args.entries()) {
    if (arg === "--stdio" || arg === "--node-ipc") return undefined;
    // vscode-languageserver reads `--socket=<port>` and `--socket <port>` alike (and --pipe's).
    const [, flag, joined] = /^--(socket|pipe)(?:=(.*))?$/.exec(arg) ?? [];
    if (!flag) continue;
    const value = joined ?? args[index + 1];
    if (flag === "socket" && !/^[1-9]\d*$/.test(value ?? ""))
      return `--socket needs the port the client listens on, such as --socket=6009, not ${value === undefined ? "nothing" : JSON.stringify(value)}`;
    if (flag === "pipe" && !value) return "--pipe needs the path of the socket or pipe the client listens on, such as --pipe=/tmp/turnlens.sock";
    return undefined;
  }
  return "needs a transport: --stdio, --node-ipc, --socket=<port> or --pipe=<path>";
}

if (command === "lsp") {
  const problem = transportProblem(rest);
  if (rest.includes("-h") || rest.includes("--help")) {
    process.stdout.write(`${LSP_USAGE}\n`);
  } else if (problem) {
    process.stderr.write(`turnlens lsp ${problem}\n\n${LSP_USAGE}\n`);
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
