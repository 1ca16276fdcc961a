/**
 * Settings → Routes: one name in the model picker ("Auto — this device, then lab") over a
 * model of this device and a provider's. Each message runs on this device when its model is
 * downloaded and can take it (text it can see, tools it can call, a context that fits), and on
 * the provider otherwise — or, preferring the provider, on this device while the provider
 * cannot be reached. Saved by the runtime (`/v1/local/routes`).
 */
import { useEffect, useState } from 'react';
import type { ModelEntry } from '../api';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { modelName } from '../model-names';
import { isRemote, isRoute } from '../remote-models';
import type { RouteCreate, RouteObject, RoutesApi } from '../routes-api';

interface Fields {
  id: string;
  local: string;
  remote: string;
  prefer: 'local' | 'remote';
}

const EMPTY: Fields = { id: '', local: '', remote: '', prefer: 'local' };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function describe(route: RouteObject, models: readonly ModelEntry[]): string {
  const name = (id: string) => {
    const found = models.find((m) => m.id === id);
    return found ? modelName(found) : id;
  };
  const provider = route.remote.slice(0, route.remote.indexOf('/'));
  const device = `${name(route.local)} on this device`;
  const server = `${name(route.remote)} on ${provider}`;
  return route.prefer === 'local' ? `${device}, then ${server}` : `${server}, then ${device} when ${provider} cannot be reached`;
}

export function RoutesSection() {
  const { api, models } = useServices();
  const { models: listed } = useStore(models);
  const [routesApi, setRoutesApi] = useState<RoutesApi | null>(null);
  const [list, setList] = useState<RouteObject[]>([]);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void api.then(async (a) => {
      if (!live) return;
      setRoutesApi(a.routes);
      setList(await a.routes.list().catch(() => []));
    });
    return () => {
      live = false;
    };
  }, [api]);

  const chat = listed.filter((m) => m.type !== 'embedding');
  const localModels = chat.filter((m) => !isRemote(m) && !isRoute(m));
  const remoteModels = chat.filter((m) => isRemote(m));

  const add = async () => {
    if (!routesApi) return;
    setError(null);
    const body: RouteCreate = { id: fields.id.trim(), local: fields.local, remote: fields.remote, prefer: fields.prefer };
    try {
      await routesApi.save(body);
      setList(await routesApi.list());
      setFields(EMPTY);
      void models.refresh();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const remove = async (id: string) => {
    if (!routesApi) return;
    await routesApi.remove(id).catch((e: unknown) => setError(messageOf(e)));
    setList(await routesApi.list());
    void models.refresh();
  };

  const edit = (patch: Partial<Fields>) => {
    setFields((f) => ({ ...f, ...patch }));
    setError(null);
  };

  return (
    <fieldset className="field routes">
      <legend>Routes</legend>
      <p className="help">
        One name in the model list for a model of this device and a provider’s. Each message runs on this device when its model is downloaded and can take it (no image it cannot see,
        no tool it cannot call, a conversation that fits), and on the provider otherwise. Preferring the provider, messages run there, and on this device while it cannot be reached.
      </p>
      {list.length > 0 ? (
        <ul className="mcp-server-list" aria-label="Routes">
          {list.map((route) => (
            <li key={route.id} data-route={route.id}>
              <strong>{route.id}</strong>
              <p className="help">
                {describe(route, chat)}
                {route.source === 'startup' ? ' · given by the app’s code' : ''}
              </p>
              {route.source !== 'startup' && (
                <div className="row-actions">
                  <button type="button" className="danger" aria-label={`Remove route ${route.id}`} onClick={() => void remove(route.id)}>
                    Remove
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{remoteModels.length ? 'No routes yet.' : 'Add a provider first: a route needs one of its models.'}</p>
      )}
      <label htmlFor="set-route-id" className="sub-label">
        Route name (shown as a model)
      </label>
      <input id="set-route-id" type="text" value={fields.id} placeholder="e.g. auto" onChange={(e) => edit({ id: e.target.value })} />
      <label htmlFor="set-route-local" className="sub-label">
        Model on this device
      </label>
      <select id="set-route-local" value={fields.local} onChange={(e) => edit({ local: e.target.value })}>
        <option value="">Choose…</option>
        {localModels.map((m) => (
          <option key={m.id} value={m.id}>
            {modelName(m)}
          </option>
        ))}
      </select>
      <label htmlFor="set-route-remote" className="sub-label">
        Provider model
      </label>
      <select id="set-route-remote" value={fields.remote} onChange={(e) => edit({ remote: e.target.value })}>
        <option value="">Choose…</option>
        {remoteModels.map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
          </option>
        ))}
      </select>
      <label htmlFor="set-route-prefer" className="sub-label">
        Prefer
      </label>
      <select id="set-route-prefer" value={fields.prefer} onChange={(e) => edit({ prefer: e.target.value === 'remote' ? 'remote' : 'local' })}>
        <option value="local">This device, the provider when needed</option>
        <option value="remote">The provider, this device when it cannot be reached</option>
      </select>
      {error && (
        <p className="mcp-error" role="alert">
          {error}
        </p>
      )}
      <div className="row-actions">
        <button type="button" onClick={() => void add()} disabled={!routesApi || !fields.id || !fields.local || !fields.remote}>
          Add route
        </button>
      </div>
    </fieldset>
  );
}
