/**
 * A WebSocket connection's memory of its latest responses: for each lane, the newest
 * `store: false` response and its whole chain (history, input, output), so the next turn can
 * continue it with `previous_response_id` although it was never stored. Any lane may continue
 * (fork) any lane's entry. A failed continuation evicts the entry it continued, as on OpenAI;
 * a closed connection takes everything with it.
 */
import type { StoredItem } from '../../protocol/output-items';

export class ChainCache {
  private readonly latest = new Map<string, { id: string; items: StoredItem[] }>();

  /** The chain ending at `id`, oldest item first, if some lane's latest response is `id`. Callers must not change it. */
  items(id: string): StoredItem[] | undefined {
    for (const entry of this.latest.values()) if (entry.id === id) return entry.items;
    return undefined;
  }

  /** `id` is now `lane`'s latest response; the lane's previous one is forgotten. */
  remember(lane: string, id: string, items: StoredItem[]): void {
    this.latest.set(lane, { id, items });
  }

  evict(id: string): void {
    for (const [lane, entry] of this.latest) if (entry.id === id) this.latest.delete(lane);
  }
}
