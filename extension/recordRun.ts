// The VS Code side of "Turnlens: Write a Test from a Run Folder…" (recordRunFlow.ts): open
// dialogs for the folder and the workflow, the server's turnlens.recordRun, the new test opened.
import * as vscode from "vscode";
import { ExecuteCommandRequest } from "vscode-languageclient/node";
import { Commands, type RecordRunArguments, type RecordRunResult } from "../server/protocol.ts";
import type { TurnlensClient } from "./client.ts";
import { recordRunFlow } from "./vscodeFree/recordRunFlow.ts";

export async function writeTestFromRun(client: TurnlensClient, start: () => Promise<void>): Promise<void> {
  const here = vscode.workspace.workspaceFolders?.[0]?.uri;
  await recordRunFlow(
    {
      async pickFolder() {
        const picked = await vscode.window.showOpenDialog({
          canSelectFolders: true,
          canSelectFiles: false,
          ...(here ? { defaultUri: here } : {}),
          title: "The run folder: the one that holds its run.jsonl",
          openLabel: "Write a test from this run",
        });
        return picked?.[0]?.fsPath;
      },
      async pickWorkflow() {
        const picked = await vscode.window.showOpenDialog({
          canSelectFiles: true,
          canSelectFolders: false,
          ...(here ? { defaultUri: here } : {}),
          filters: { Workflow: ["ts", "mts", "js", "mjs"] },
          title: "The workflow file the run ran",
          openLabel: "The run's workflow",
        });
        return picked?.[0]?.fsPath;
      },
      async confirm(message, action) {
        return (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action;
      },
      async open(file) {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
      },
      info: (message) => void vscode.window.showInformationMessage(message),
      error: (message) => void vscode.window.showErrorMessage(message),
    },
    async (args: RecordRunArguments) => {
      await start();
      return (await client.client.sendRequest(ExecuteCommandRequest.type, { command: Commands.recordRun, arguments: [args] })) as RecordRunResult;
    },
  );
}
