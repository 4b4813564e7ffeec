// The getting-started command: scaffolds a first workflow and its test into the open folder with
// the shipped CLI (`turnlens init --example --json`), then opens the test so the server runs it.
import { execFile } from "node:child_process";
import { join } from "node:path";
import * as vscode from "vscode";

/** What `turnlens init --json` prints (core/runner/init.ts InitResult), as far as the command reads it. */
interface InitResult {
  folder: string;
  created: string[];
  skipped: { file: string; reason: string }[];
  errors: string[];
}

function runInit(cli: string, folder: string): Promise<InitResult> {
  return new Promise((resolve, reject) => {
    // The extension host's own Node runs the CLI: a user needs nothing else installed.
    execFile(process.execPath, [cli, "init", folder, "--example", "--json"], { env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } }, (error, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout) as InitResult);
      } catch {
        reject(new Error(`turnlens init failed: ${(stderr || stdout || String(error)).trim()}`));
      }
    });
  });
}

export async function gettingStarted(context: vscode.ExtensionContext, start: () => Promise<void>): Promise<void> {
  let folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) {
    const picked = await vscode.window.showOpenDialog({ canSelectFolders: true, canSelectFiles: false, openLabel: "Set up Turnlens here" });
    folder = picked?.[0];
    if (!folder) return;
  }
  const result = await runInit(join(context.extensionPath, "dist", "cli.mjs"), folder.fsPath);
  if (result.errors.length) throw new Error(result.errors.join("; "));
  const testFile = [...result.created, ...result.skipped.map((skipped) => skipped.file)].find((file) => /\.test\.ts$/.test(file));
  if (testFile) {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, testFile));
    await vscode.window.showTextDocument(document);
  }
  await start();
  const made = result.created.length ? `created ${result.created.join(", ")}` : "nothing new to create";
  void vscode.window.showInformationMessage(`Turnlens: ${made}. Its tests run as you type; the Testing view lists them.`);
}
