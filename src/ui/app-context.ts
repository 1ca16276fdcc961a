import { createContext, useContext } from 'react';
import type { ChatStore } from './chat-store';
import type { InstallPromptStore } from './install-prompt';
import type { McpTokenStore } from './mcp-tokens';
import type { ModelsStore } from './models-store';
import type { SettingsStore } from './settings-store';
import type { Api } from './api';
import type { OfflineFilesStore } from './offline-files-store';
import type { ChatFilesStore } from './chat-files';

export type RuntimeState = { state: 'starting' } | { state: 'ready'; leader: boolean } | { state: 'failed'; message: string };

export interface AppServices {
  chat: ChatStore;
  /** Files attached to chats (their vector stores). */
  files: ChatFilesStore;
  models: ModelsStore;
  settings: SettingsStore;
  /** Tokens of the MCP servers: this tab's memory only. */
  mcpTokens: McpTokenStore;
  /** Test builds (`?test-models`): hidden models are listed and selectable. */
  testModels: boolean;
  /** Resolves once the runtime answers. */
  api: Promise<Api>;
  /** What is not kept offline yet (the service worker's report). */
  offlineFiles: OfflineFilesStore;
  /** The browser's offer to install the app, when it makes one. */
  install: InstallPromptStore;
}

export const AppContext = createContext<AppServices | null>(null);

export function useServices(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('AppContext missing');
  return services;
}
