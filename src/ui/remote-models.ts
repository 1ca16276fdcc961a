/** Models served by a provider (an upstream server, engine `remote`): what runs where. */
import type { ModelEntry } from './api';

export function isRemote(model: ModelEntry | undefined): boolean {
  return model?.engine === 'remote';
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
