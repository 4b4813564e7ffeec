// The process a script config runs in (dist/configProcess.mjs, forked by configLoader.ts): it
// evaluates the file named by its argument, sends the checked settings or the error over IPC, and
// ends. A config that loops is killed by its parent, and it dies with its parent.
import { ConfigError, shown } from "./configFile.ts";
import { evaluateScriptConfig, messageOf } from "./configScript.ts";
import { watchParent } from "../execution/parentWatch.ts";
import { tagDescendants, workerTag } from "../execution/processTree.ts";

/** What the config's process sends its parent, once. */
export type ConfigProcessMessage = { config: unknown } | { error: string };

const tag = workerTag(process.pid);
// What the config starts carries this process's tag, and is killed with it.
tagDescendants(tag);
watchParent(process.ppid, tag);

const channel = process.send?.bind(process);
const path = process.argv[2] ?? "";

function answer(message: ConfigProcessMessage): void {
  try {
    channel?.(message, () => process.exit(0));
  } catch (error) {
    // Settings that are not plain data (a function, a class instance with private state) cannot be sent.
    channel?.({ error: `${shown(path)} must export plain settings (strings, numbers, arrays, objects, RegExps): ${messageOf(error)}` }, () => process.exit(0));
  }
}

try {
  answer({ config: evaluateScriptConfig(path) });
} catch (error) {
  answer({ error: error instanceof ConfigError ? error.message : messageOf(error) });
}
