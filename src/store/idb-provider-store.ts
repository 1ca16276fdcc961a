/**
 * Remote providers' settings in the origin's IndexedDB (`providers` store): what the app's
 * Settings → Providers and same-origin code saved through `/v1/local/providers`. A key is
 * here only when it was to be kept ("this session only" keys stay in the runtime's memory).
 * A row that does not read as a provider (written by a newer version, damaged) is skipped,
 * never a reason for the runtime not to start.
 */
import { openDB } from 'idb';
import type { ProviderRecord, ProviderStore } from '../ports/providers';
import { DB_VERSION, migrate, type ResponsesDB } from './idb-schema';
import { DEFAULT_DB_NAME } from './idb-store';

function isRecord(row: unknown): row is ProviderRecord {
  if (typeof row !== 'object' || row === null) return false;
  const r = row as Partial<ProviderRecord>;
  return (
    typeof r.id === 'string' &&
    typeof r.baseUrl === 'string' &&
    (r.api === 'chat_completions' || r.api === 'responses') &&
    typeof r.concurrency === 'number' &&
    (r.apiKey === undefined || typeof r.apiKey === 'string') &&
    (r.models === undefined || (Array.isArray(r.models) && r.models.every((m) => typeof m === 'string')))
  );
}

/** The providers store of the responses database; opens its own connection to it. */
export async function openIdbProviderStore(options: { name?: string } = {}): Promise<ProviderStore> {
  const db = await openDB<ResponsesDB>(options.name ?? DEFAULT_DB_NAME, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => migrate(database, oldVersion, tx),
  });
  return {
    async list() {
      const rows: unknown[] = await db.getAll('providers');
      return rows.filter(isRecord).map((r) => ({ ...r, keyStorage: r.keyStorage ?? null, createdAt: r.createdAt ?? 0 }));
    },
    async put(record) {
      await db.put('providers', structuredClone(record));
    },
    async delete(id) {
      const tx = db.transaction('providers', 'readwrite');
      const existed = (await tx.store.getKey(id)) !== undefined;
      if (existed) await tx.store.delete(id);
      await tx.done;
      return existed;
    },
    close: () => db.close(),
  };
}
