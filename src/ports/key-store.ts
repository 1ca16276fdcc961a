/**
 * Where the origin's secret keys live: the key that seals `encrypted_content` (reasoning and
 * compaction items) so only this origin can open what it handed out. Implemented by the
 * IndexedDB store (store/key-store.ts) and, for servers without storage, in memory
 * (server/sealing/memory-key-store.ts).
 */
export interface KeyStore {
  /** The reasoning key; the same one every time (created on first use). */
  reasoningKey(): Promise<CryptoKey>;
  close(): void;
}
