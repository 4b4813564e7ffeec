// `workspace/didChangeConfiguration`: the settings, from initializationOptions, that notification,
// and (when the client answers it) `workspace/configuration` per document, cached on the document
// until it closes.
import { DidChangeConfigurationNotification } from "vscode-languageserver";
import type { InitializationOptions } from "../protocol.ts";
import type { Server } from "../server.ts";
import { readSettings, SETTINGS_SECTION } from "../settings.ts";

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
