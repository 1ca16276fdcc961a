/**
 * AES-GCM under the origin's key (store/key-store.ts), for the opaque `encrypted_content`
 * this runtime hands out (reasoning items, compaction items). The additional authenticated
 * data names what the box is for, so a box made for one purpose never opens as another.
 * Layout: `<prefix>` + base64(12-byte IV ‖ ciphertext+tag).
 */
import type { KeyStore } from '../../ports/key-store';

export async function sealJson(keys: KeyStore, prefix: string, aad: string, value: unknown): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(value));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(aad) }, await keys.reasoningKey(), plain);
  return prefix + toBase64(concat(iv, new Uint8Array(sealed)));
}

/** What `sealed` holds, or null when it does not open: changed, made for another purpose, or sealed under another key. */
export async function openJson(keys: KeyStore, prefix: string, aad: string, sealed: string): Promise<unknown> {
  const bytes = sealed.startsWith(prefix) ? fromBase64(sealed.slice(prefix.length)) : null;
  if (!bytes || bytes.length < 12 + 16) return null;
  let plain: ArrayBuffer;
  try {
    plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(aad) }, await keys.reasoningKey(), bytes.slice(12));
  } catch {
    return null; // authentication failed: the one thing a wrong key, purpose or byte gives
  }
  return JSON.parse(new TextDecoder().decode(plain)) as unknown;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}
