/**
 * `encrypted_content` on reasoning items (`include: ["reasoning.encrypted_content"]`): a
 * stateless client (`store: false`) gets its reasoning back sealed and sends it with the next
 * request, so the model keeps what it thought across turns without anything being stored.
 *
 * Sealed with AES-GCM under the origin's key (store/key-store.ts): the plaintext is the
 * item's reasoning content and summary, the item id is the additional authenticated data —
 * so the content cannot be changed, moved to another item or opened with another key
 * (another origin, or a profile whose storage was cleared) without the check failing.
 * Layout: `lr1.` + base64(12-byte IV ‖ ciphertext+tag).
 */
import type { Reasoning } from '../protocol/output-items';
import { invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';
import type { KeyStore } from '../store/key-store';

const PREFIX = 'lr1.';

export interface SealedReasoning {
  content: Reasoning['content'];
  summary: Reasoning['summary'];
}

export interface ReasoningSealer {
  seal(item: Reasoning): Promise<string>;
  /** What `sealed` holds for the item `id`; a 400 naming `param` when it does not open. */
  open(id: string, sealed: string, param: string): Promise<SealedReasoning>;
}

export function reasoningSealer(keys: KeyStore): ReasoningSealer {
  const aad = (id: string) => new TextEncoder().encode(`local-responses reasoning ${id}`);
  return {
    async seal(item) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const plain = new TextEncoder().encode(JSON.stringify({ content: item.content, summary: item.summary } satisfies SealedReasoning));
      const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: aad(item.id) }, await keys.reasoningKey(), plain);
      return PREFIX + toBase64(concat(iv, new Uint8Array(sealed)));
    },
    async open(id, sealed, param) {
      const refuse = () =>
        invalidRequest(
          `The encrypted content of reasoning item '${id}' could not be verified: it was changed, belongs to another item, or was sealed by another origin or before this origin's storage was cleared. Send the item without encrypted_content, or leave it out.`,
          param,
          Codes.invalidEncryptedContent,
        );
      const bytes = sealed.startsWith(PREFIX) ? fromBase64(sealed.slice(PREFIX.length)) : null;
      if (!bytes || bytes.length < 12 + 16) throw refuse();
      let plain: ArrayBuffer;
      try {
        plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: aad(id) }, await keys.reasoningKey(), bytes.slice(12));
      } catch {
        throw refuse(); // authentication failed: the one thing a wrong key, item or byte gives
      }
      return JSON.parse(new TextDecoder().decode(plain)) as SealedReasoning;
    },
  };
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
