/**
 * The remote wing: models of an upstream OpenAI-compatible server (llama.cpp, vLLM, SGLang,
 * Ollama, LM Studio, OpenAI), one stateless upstream request per round of a run, over Chat
 * Completions or Responses (`store: false`). Everything stateful stays in the runtime. The
 * composition root imports this face and hands `connectProvider` to the server.
 */
import type { ConnectProvider } from '../../ports/providers';
import { ProviderEngine, type RemoteEngineOptions } from './remote-engine';

export { ProviderEngine, UNKNOWN_CONTEXT_WINDOW, UPSTREAM_FORMAT, type RemoteEngineOptions } from './remote-engine';

/** Makes the engine of each provider, with these options (the app's origin, tests' `fetch`, limits). */
export function providerConnector(options: RemoteEngineOptions): ConnectProvider {
  return (connection) => new ProviderEngine(connection, options);
}
