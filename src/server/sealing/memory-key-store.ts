import type { KeyStore } from '../../ports/key-store';
import { generateSealingKey } from '../../shared/sealing-key';

/** A key that lives as long as this object: for servers without storage, and tests. */
export function memoryKeyStore(): KeyStore {
  let key: Promise<CryptoKey> | null = null;
  return { reasoningKey: () => (key ??= generateSealingKey()), close: () => {} };
}
