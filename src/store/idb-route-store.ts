/**
 * Routes' settings in the origin's IndexedDB (`routes` store, schema version 7): what the
 * app's Settings → Providers → Routes and same-origin code saved through `/v1/local/routes`.
 * A row that does not read as a route (written by a newer version, damaged) is skipped,
 * never a reason for the runtime not to start.
 */
import { openDB } from 'idb';
import type { RouteRecord, RouteStore } from '../ports/routes';
import { DB_VERSION, migrate, type ResponsesDB } from './idb-schema';
import { DEFAULT_DB_NAME } from './idb-store';

function isRecord(row: unknown): row is RouteRecord {
  if (typeof row !== 'object' || row === null) return false;
  const r = row as Partial<RouteRecord>;
  return typeof r.id === 'string' && typeof r.local === 'string' && typeof r.remote === 'string' && (r.prefer === 'local' || r.prefer === 'remote');
}

/** The routes store of the responses database; opens its own connection to it. */
export async function openIdbRouteStore(options: { name?: string } = {}): Promise<RouteStore> {
  const db = await openDB<ResponsesDB>(options.name ?? DEFAULT_DB_NAME, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => migrate(database, oldVersion, tx),
  });
  return {
    async list() {
      const rows: unknown[] = await db.getAll('routes');
      return rows.filter(isRecord).map((r) => ({ ...r, createdAt: typeof r.createdAt === 'number' ? r.createdAt : 0 }));
    },
    async put(record) {
      await db.put('routes', structuredClone(record));
    },
    async delete(id) {
      const tx = db.transaction('routes', 'readwrite');
      const existed = (await tx.store.getKey(id)) !== undefined;
      if (existed) await tx.store.delete(id);
      await tx.done;
      return existed;
    },
    close: () => db.close(),
  };
}
