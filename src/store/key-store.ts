/**
 * The origin's secret key for `encrypted_content` on reasoning items: an AES-GCM key
 * generated once, non-extractable (no script, ours included, can read its bytes), kept in
 * IndexedDB so reasoning sealed before a reload can still be opened after it. Only this
 * origin's IndexedDB holds it, so only this origin can open what it sealed.
 */
import { openDB } from 'idb';
import { DB_VERSION, migrate, type ResponsesDB } from './idb-schema';
import { DEFAULT_DB_NAME } from './idb-store';
import type { KeyStore } from '../ports/key-store';
import { generateSealingKey } from '../shared/sealing-key';


const REASONING = 'reasoning';


/** The key in the responses database (`keys` store); opens its own connection to it. */
export async function openIdbKeyStore(options: { name?: string } = {}): Promise<KeyStore> {
  const db = await openDB<ResponsesDB>(options.name ?? DEFAULT_DB_NAME, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => migrate(database, oldVersion, tx),
  });
  let key: Promise<CryptoKey> | null = null;
  const load = async (): Promise<CryptoKey> => {
    // Generated before the transaction (an await on WebCrypto would end it); a key another
    // tab stored first wins, so every tab seals with the same one.
    const fresh = await generateSealingKey();
    const tx = db.transaction('keys', 'readwrite');
    const existing = await tx.store.get(REASONING);
    if (!existing) await tx.store.put(fresh, REASONING);
    await tx.done;
    return existing ?? fresh;
  };
  return {
    reasoningKey: () => {
      key ??= load().catch((err: unknown) => {
        key = null; // a failed read (storage trouble) is tried again next time
        throw err;
      });
      return key;
    },
    close: () => db.close(),
  };
}
