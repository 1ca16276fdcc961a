/**
 * Web search (`web_search`): search, open_page and find_in_page over `fetch`, every URL
 * through the URL policy. The port (its code imported at the first call) and the descriptor.
 */
import type { WebSearchPort } from '../../ports/tool-ports';
import type { RuntimeToolsOptions } from '../../protocol/runtime-options';
import { onFirstUse } from '../on-first-use';

export { webSearchTool } from './web-search-tool';
export { createPolicyImageFetcher } from './image-fetcher';

/** Web search unless turned off (`webSearch: false`); `appOrigin` is never fetched. */
export function webSearchPort(options: RuntimeToolsOptions, appOrigin: string): WebSearchPort | undefined {
  if (options.webSearch === false) return undefined;
  const { allowPrivateNetwork, allowHosts, ...rest } = options.webSearch ?? {};
  const policy = { appOrigin, allowPrivateNetwork: allowPrivateNetwork ?? false, allowHosts: allowHosts ?? [] };
  const search = onFirstUse(async () => (await import('./fetch-web-search')).createFetchWebSearch({ ...rest, policy }));
  return {
    search: async (query, signal) => (await search()).search(query, signal),
    openPage: async (url, signal) => (await search()).openPage(url, signal),
    findInPage: async (url, pattern, signal) => (await search()).findInPage(url, pattern, signal),
  };
}
