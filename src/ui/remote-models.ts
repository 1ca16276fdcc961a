/** Models served by a provider (an upstream server, engine `remote`): what runs where. */
import type { ModelEntry } from './api';

export function isRemote(model: ModelEntry | undefined): boolean {
  return model?.engine === 'remote';
}

/** A route: the device's model when it can take a request, a provider's otherwise (or the other way round). */
export function isRoute(model: ModelEntry | undefined): boolean {
  return model?.engine === 'route';
}

/** The provider whose server messages to `model` may reach: a remote model's, or a route's provider model's; null for a model of this device. */
export function reachesProvider(model: ModelEntry | undefined): string | null {
  if (isRemote(model)) return model!.owned_by;
  const remote = model?.route?.remote;
  return remote ? remote.slice(0, remote.indexOf('/')) : null;
}

/** The provider a remote model belongs to: its `owned_by` (the id before the `/`). */
export function providerOf(model: ModelEntry): string {
  return model.owned_by;
}

/** Remote models by provider, in the order first seen. */
export function byProvider(models: readonly ModelEntry[]): Array<{ provider: string; models: ModelEntry[] }> {
  const groups = new Map<string, ModelEntry[]>();
  for (const model of models) if (isRemote(model)) groups.set(providerOf(model), [...(groups.get(providerOf(model)) ?? []), model]);
  return [...groups].map(([provider, list]) => ({ provider, models: list }));
}
