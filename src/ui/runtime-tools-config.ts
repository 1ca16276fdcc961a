/**
 * The tools configuration the app starts its runtime with: the user's search provider from
 * the settings on top of the base (the stored runtime options, see `client/stored-runtime-options.ts`). The runtime
 * reads it at start, so a changed provider applies from the next reload.
 */
import type { ToolsConfig } from '../tools/tools-config';

export function toolsConfigWithProvider(base: ToolsConfig, providerUrl: string): ToolsConfig {
  if (!providerUrl || base.webSearch === false) return base;
  let url: URL;
  try {
    url = new URL(providerUrl);
  } catch {
    console.error(`Ignoring the search provider setting: '${providerUrl}' is not a URL.`);
    return base;
  }
  const web = base.webSearch ?? {};
  return {
    ...base,
    webSearch: {
      ...web,
      provider: { type: 'searxng', baseUrl: url.href.replace(/\/$/, '') },
      // A self-hosted SearXNG often lives on this machine or the local network: the user
      // named this host, so it (and only it) is allowed past the private-network rule.
      allowHosts: [...(web.allowHosts ?? []), url.host],
    },
  };
}
