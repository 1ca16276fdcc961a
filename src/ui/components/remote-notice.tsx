/**
 * While a provider's model (or a route that may use one) is chosen, the app says plainly where messages go: to that
 * provider's server (its address, once known). Shown above the conversation, so it is
 * there for a running chat too, not only on a new one.
 */
import { useEffect, useState } from 'react';
import { useServices } from '../app-context';
import { useStore } from '../external-store';
import { isRoute, reachesProvider } from '../remote-models';

export function RemoteNotice() {
  const { models: modelsStore, settings: settingsStore, api } = useServices();
  const { models } = useStore(modelsStore);
  const settings = useStore(settingsStore);
  const selected = models.find((m) => m.id === settings.model);
  const provider = reachesProvider(selected);
  const [address, setAddress] = useState<string | null>(null);
  useEffect(() => {
    setAddress(null);
    if (!provider) return;
    let live = true;
    void api.then((a) => a.providers.get(provider)).then(
      (p) => live && setAddress(p.base_url),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, provider]);
  if (!provider) return null;
  return (
    <p className="notice remote-notice" role="note" data-provider={provider}>
      {!isRoute(selected) ? 'Messages to this model go to the provider ' : selected!.route!.prefer === 'local' ? 'Messages this device’s model cannot take go to the provider ' : 'Messages go to the provider '}
      <strong>{provider}</strong>
      {address ? <> at {address}</> : null}
      {isRoute(selected) && selected!.route!.prefer === 'remote' ? ', and run on this device while it cannot be reached.' : ', whose server runs it.'} Your chats and tools stay in this browser.
    </p>
  );
}
