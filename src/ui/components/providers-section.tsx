/**
 * Settings → Providers: servers whose models this app can use besides its own (llama.cpp,
 * vLLM, SGLang, Ollama, LM Studio, OpenAI). Saved by the runtime (`/v1/local/providers`),
 * a key in this origin's storage or, when asked, for this session only. Test connection lists
 * the server's models or says what went wrong; it first knocks from this page, which is what
 * lets Chrome ask for local-network access when the app is served over https.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { useServices } from '../app-context';
import type { ProviderCreate, ProviderModel, ProviderObject, ProvidersApi } from '../providers-api';

type TestState = { state: 'testing' } | { state: 'ok'; models: ProviderModel[] } | { state: 'failed'; message: string };

interface Fields {
  id: string;
  url: string;
  api: 'chat_completions' | 'responses';
  key: string;
  sessionOnly: boolean;
}

const EMPTY: Fields = { id: '', url: '', api: 'chat_completions', key: '', sessionOnly: false };

/**
 * A request from this page to the server (no key, no CORS needed, the answer unread): on an
 * https page it is what lets Chrome ask for access to a local-network address; the runtime
 * worker, which makes the real requests, cannot show that prompt.
 */
function knock(baseUrl: string): Promise<void> {
  return fetch(`${baseUrl}/models`, { mode: 'no-cors', credentials: 'omit', signal: AbortSignal.timeout(5000) }).then(
    () => undefined,
    () => undefined,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ProviderRow({ provider, test, onTest, onRemove, onKey }: { provider: ProviderObject; test: TestState | undefined; onTest: () => void; onRemove: () => void; onKey: (key: string) => void }) {
  const id = useId();
  const [key, setKey] = useState('');
  const keyLost = provider.key_storage === 'session' && !provider.has_api_key;
  return (
    <li data-provider={provider.id}>
      <strong>{provider.id}</strong> <span className="muted">{provider.base_url}</span>
      <p className="help">
        {provider.api === 'responses' ? 'Responses API' : 'Chat Completions'} ·{' '}
        {provider.has_api_key ? `key set${provider.api_key_last4 ? ` (…${provider.api_key_last4})` : ''}${provider.key_storage === 'session' ? ', for this session' : ''}` : keyLost ? 'key was for the last session only' : 'no key'}
        {provider.source === 'startup' ? ' · given by the app’s code' : ''}
      </p>
      {keyLost && (
        <>
          <label htmlFor={`${id}-key`} className="sub-label">
            Key for {provider.id} (this session only)
          </label>
          <input id={`${id}-key`} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value.trim())} />
        </>
      )}
      <div className="row-actions">
        {keyLost && (
          <button type="button" disabled={!key} onClick={() => onKey(key)}>
            Use this key
          </button>
        )}
        <button type="button" onClick={onTest} disabled={test?.state === 'testing'} aria-label={`Test connection to ${provider.id}`}>
          {test?.state === 'testing' ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" className="danger" aria-label={`Remove provider ${provider.id}`} onClick={onRemove}>
          Remove
        </button>
      </div>
      {test?.state === 'ok' && (
        <p className="help" role="status">
          Connected. {test.models.length ? `Models: ${test.models.map((m) => m.id).join(', ')}` : 'It lists no models.'}
        </p>
      )}
      {test?.state === 'failed' && (
        <p className="mcp-error" role="alert">
          {test.message}
        </p>
      )}
    </li>
  );
}

export function ProvidersSection() {
  const { api, models } = useServices();
  const [providersApi, setProvidersApi] = useState<ProvidersApi | null>(null);
  const [list, setList] = useState<ProviderObject[]>([]);
  const [tests, setTests] = useState<Record<string, TestState>>({});
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void api.then(async (a) => {
      if (!live) return;
      setProvidersApi(a.providers);
      setList(await a.providers.list().catch(() => []));
    });
    return () => {
      live = false;
    };
  }, [api]);

  const test = useCallback(
    async (provider: ProviderObject) => {
      if (!providersApi) return;
      setTests((t) => ({ ...t, [provider.id]: { state: 'testing' } }));
      await knock(provider.base_url);
      const result: TestState = await providersApi.test(provider.id).then(
        (found) => ({ state: 'ok', models: found }),
        (e: unknown) => ({ state: 'failed', message: messageOf(e) }),
      );
      setTests((t) => ({ ...t, [provider.id]: result }));
      void models.refresh();
    },
    [providersApi, models],
  );

  const save = async (body: ProviderCreate) => {
    if (!providersApi) return;
    const saved = await providersApi.save(body);
    setList(await providersApi.list());
    void test(saved);
  };

  const add = async () => {
    setError(null);
    const body: ProviderCreate = {
      id: fields.id.trim(),
      base_url: fields.url.trim(),
      api: fields.api,
      ...(fields.key ? { api_key: fields.key, key_storage: fields.sessionOnly ? 'session' : 'persistent' } : {}),
    };
    try {
      await save(body);
      setFields(EMPTY);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const remove = async (id: string) => {
    if (!providersApi) return;
    await providersApi.remove(id).catch((e: unknown) => setError(messageOf(e)));
    setList(await providersApi.list());
    void models.refresh();
  };

  const edit = (patch: Partial<Fields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setError(null);
  };

  return (
    <fieldset className="field providers">
      <legend>Providers</legend>
      <p className="help">
        Servers with bigger models: your own llama.cpp, Ollama or LM Studio, a vLLM or SGLang server, or OpenAI. Their models join the model list; what you send to one of them goes to
        its server. Chats, tools and storage stay in this browser.
      </p>
      {list.length > 0 ? (
        <ul className="mcp-server-list" aria-label="Providers">
          {list.map((provider) => (
            <ProviderRow
              key={provider.id}
              provider={provider}
              test={tests[provider.id]}
              onTest={() => void test(provider)}
              onRemove={() => void remove(provider.id)}
              onKey={(key) =>
                void save({
                  id: provider.id,
                  base_url: provider.base_url,
                  api: provider.api,
                  api_key: key,
                  key_storage: 'session',
                  ...(provider.models ? { models: provider.models } : {}),
                  ...(provider.context_window ? { context_window: provider.context_window } : {}),
                  concurrency: provider.concurrency,
                }).catch((e: unknown) => setError(messageOf(e)))
              }
            />
          ))}
        </ul>
      ) : (
        <p className="muted">No providers yet.</p>
      )}
      <label htmlFor="set-provider-id" className="sub-label">
        Provider name (a–z, 0–9, -)
      </label>
      <input id="set-provider-id" type="text" value={fields.id} placeholder="e.g. lab" onChange={(e) => edit({ id: e.target.value })} />
      <label htmlFor="set-provider-url" className="sub-label">
        Provider address (its OpenAI base URL)
      </label>
      <input id="set-provider-url" type="url" inputMode="url" value={fields.url} placeholder="http://127.0.0.1:8080/v1" onChange={(e) => edit({ url: e.target.value })} />
      <label htmlFor="set-provider-api" className="sub-label">
        Speaks
      </label>
      <select id="set-provider-api" value={fields.api} onChange={(e) => edit({ api: e.target.value === 'responses' ? 'responses' : 'chat_completions' })}>
        <option value="chat_completions">Chat Completions (every server)</option>
        <option value="responses">Responses (OpenAI)</option>
      </select>
      <label htmlFor="set-provider-key" className="sub-label">
        Provider API key (optional)
      </label>
      <input id="set-provider-key" type="password" autoComplete="off" value={fields.key} onChange={(e) => edit({ key: e.target.value.trim() })} />
      <label className="check">
        <input type="checkbox" checked={fields.sessionOnly} onChange={(e) => edit({ sessionOnly: e.target.checked })} />
        Keep the key for this session only
      </label>
      {error && (
        <p className="mcp-error" role="alert">
          {error}
        </p>
      )}
      <div className="row-actions">
        <button type="button" onClick={() => void add()} disabled={!providersApi || !fields.id || !fields.url}>
          Add provider
        </button>
      </div>
    </fieldset>
  );
}
