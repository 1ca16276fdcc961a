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
import type { Reasoning } from '../../protocol/output-items';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { KeyStore } from '../../ports/key-store';
import { openJson, sealJson } from './sealed-box';

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
  const aad = (id: string) => `local-responses reasoning ${id}`;
  return {
    seal: (item) => sealJson(keys, PREFIX, aad(item.id), { content: item.content, summary: item.summary } satisfies SealedReasoning),
    async open(id, sealed, param) {
      const plain = await openJson(keys, PREFIX, aad(id), sealed);
      if (plain === null)
        throw invalidRequest(
          `The encrypted content of reasoning item '${id}' could not be verified: it was changed, belongs to another item, or was sealed by another origin or before this origin's storage was cleared. Send the item without encrypted_content, or leave it out.`,
          param,
          Codes.invalidEncryptedContent,
        );
      return plain as SealedReasoning;
    },
  };
}
