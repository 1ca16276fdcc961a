/**
 * A fresh sealing key: AES-GCM, 256 bits, non-extractable (no script, ours included, can
 * read its bytes). One generator for every key store, so all of them seal alike.
 */
export function generateSealingKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}
