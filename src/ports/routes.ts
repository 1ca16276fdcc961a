/**
 * Routes (see protocol/local-routes.ts for the API): one model name over a model of this
 * device and a provider's model. The server keeps them; a RouteStore keeps the ones made
 * through `/v1/local/routes` (IndexedDB: store/idb-route-store.ts).
 */

/** A route's settings as stored. */
export interface RouteRecord {
  id: string;
  /** A model of this device. */
  local: string;
  /** A provider's model, `<provider id>/<upstream model id>`. */
  remote: string;
  prefer: 'local' | 'remote';
  /** Unix seconds. */
  createdAt: number;
}

/** Where route settings are kept. Reads never throw for one bad row: it is skipped. */
export interface RouteStore {
  list(): Promise<RouteRecord[]>;
  put(record: RouteRecord): Promise<void>;
  delete(id: string): Promise<boolean>;
  close(): void;
}
