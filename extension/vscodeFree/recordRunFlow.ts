// "Turnlens: Write a Test from a Run Folder…" as steps over a small UI, with no `vscode` import:
// ask for the run folder and the workflow, run the server's turnlens.recordRun, offer to
// overwrite a test in the way, and open the written test or say where the run parts.
import type { RecordRunArguments, RecordRunResult } from "../../server/protocol.ts";

/** What the flow asks of the editor; extension/recordRun.ts gives VS Code's. Paths are file paths. */
export interface RecordRunUi {
  pickFolder(): Promise<string | undefined>;
  pickWorkflow(folder: string): Promise<string | undefined>;
  /** True when the user chose `action`. */
  confirm(message: string, action: string): Promise<boolean>;
  open(file: string): Promise<void>;
  info(message: string): void;
  error(message: string): void;
}

const basename = (path: string) => path.split(/[\\/]/).pop() ?? path;

/** Runs the flow; resolves to the file written, or undefined when nothing was. */
export async function recordRunFlow(ui: RecordRunUi, execute: (args: RecordRunArguments) => Promise<RecordRunResult>): Promise<string | undefined> {
  const folder = await ui.pickFolder();
  if (!folder) return undefined;
  const workflow = await ui.pickWorkflow(folder);
  if (!workflow) return undefined;
  let result = await execute({ folder, workflow });
  const inTheWay = result.error && /exists; give --force/.test(result.error) ? result.error.split(" exists;")[0]! : undefined;
  if (inTheWay) {
    if (!(await ui.confirm(`${basename(inTheWay)} exists. Overwrite it with the test of ${basename(folder)}?`, "Overwrite"))) return undefined;
    result = await execute({ folder, workflow, force: true });
  }
  if (result.error) {
    ui.error(`Turnlens: ${result.error}`);
    return undefined;
  }
  if (!result.ok || !result.written) {
    ui.error(`Turnlens: ${basename(folder)} does not replay against ${basename(workflow)}, so no test was written: ${result.partings.join("; ")}`);
    return undefined;
  }
  await ui.open(result.written);
  const decisions = result.decisions ? `, ${plural(result.decisions, "decision")}` : "";
  ui.info(`Turnlens: wrote ${basename(result.written)} (${plural(result.turns, "turn")}, ${plural(result.events, "event")}${decisions}).`);
  return result.written;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
