// Settings: from initializationOptions, `workspace/didChangeConfiguration`, and (when the client
// answers it) `workspace/configuration` per document, cached on the document until it closes.
// Also the logger, whose level is a setting.
import { DidChangeConfigurationNotification, type Connection } from "vscode-languageserver";
import type { InitializationOptions } from "../protocol.ts";
import type { Server } from "../server.ts";
import { readSettings, SETTINGS_SECTION, type Settings } from "../settings.ts";
import type { Logger } from "../state.ts";

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

export function register(server: Server): void {
  const { connection, state } = server;
  let pull = false;

  const fetchFor = async (uri: string): Promise<void> => {
    if (!pull) return;
    const [value] = (await connection.workspace.getConfiguration([{ scopeUri: uri, section: SETTINGS_SECTION }])) as unknown[];
    const document = state.get(uri);
    if (document) document.settings = readSettings(value ?? {});
  };

  server.onInitialize((params) => {
    const options = (params.initializationOptions ?? {}) as InitializationOptions;
    if (options.settings) state.globalSettings = readSettings(options.settings);
    pull = params.capabilities.workspace?.configuration === true;
  });

  server.onInitialized(
    server.guardNotification("initialized", async () => {
      if (!pull) return;
      if (state.clientCapabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
        await connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
      }
      const [value] = (await connection.workspace.getConfiguration([{ section: SETTINGS_SECTION }])) as unknown[];
      state.globalSettings = readSettings(value ?? {});
    }),
  );

  connection.onDidChangeConfiguration(
    server.guardNotification("didChangeConfiguration", async (params) => {
      const pushed = (params.settings as Record<string, unknown> | undefined)?.[SETTINGS_SECTION];
      if (pushed !== undefined) state.globalSettings = readSettings(pushed);
      else if (pull) {
        const [value] = (await connection.workspace.getConfiguration([{ section: SETTINGS_SECTION }])) as unknown[];
        state.globalSettings = readSettings(value ?? {});
      }
      for (const document of state.all()) {
        document.settings = state.globalSettings;
        await fetchFor(document.uri);
      }
      state.refreshViews();
    }),
  );

  state.onDidOpen.event(server.guardNotification("settings for an opened document", (uri: string) => fetchFor(uri)));
}
