// The server's logger: window/logMessage lines at the level the `logLevel` setting allows, and
// nothing thrown when the connection is gone.
import type { Connection } from "vscode-languageserver";
import type { Settings } from "./settings.ts";
import type { Logger } from "./state.ts";

const LEVELS = ["error", "warn", "info", "debug"] as const;

export function logger(connection: Connection, level: () => Settings["logLevel"]): Logger {
  const enabled = (wanted: Settings["logLevel"]) => LEVELS.indexOf(wanted) <= LEVELS.indexOf(level());
  const write = (wanted: Settings["logLevel"], message: string) => {
    if (!enabled(wanted)) return;
    try {
      if (wanted === "error") connection.console.error(message);
      else if (wanted === "warn") connection.console.warn(message);
      else connection.console.log(message);
    } catch {
      // The connection is gone; nothing to tell.
    }
  };
  return {
    error: (message) => write("error", message),
    warn: (message) => write("warn", message),
    info: (message) => write("info", message),
    debug: (message) => write("debug", message),
  };
}
