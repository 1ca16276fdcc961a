/**
 * The `encrypted_content` of compaction items: the model's summary of the conversation it
 * replaces, and how many items just before the compaction item it leaves in view (`tail`,
 * see compaction-window.ts). Sealed under the origin's key (the same one as reasoning, see
 * sealed-box.ts), so a client can carry it but not read or change it, and another origin
 * (or this one after its storage was cleared) cannot open it. Not bound to an item id:
 * OpenAI lets a client send a compaction item back without its id.
 */
import { z } from 'zod';
import { invalidRequest } from '../../shared/api-error';
import { Codes } from '../../shared/error-codes';
import type { KeyStore } from '../../ports/key-store';
import { openJson, sealJson } from './sealed-box';

const PREFIX = 'lc1.';
const AAD = 'local-responses compaction';

const CompactionContent = z.strictObject({ summary: z.string(), tail: z.number().int().min(0) });
export type CompactionContent = z.infer<typeof CompactionContent>;

export interface CompactionSealer {
  seal(content: CompactionContent): Promise<string>;
  /** What `sealed` holds; a 400 `invalid_encrypted_content` naming `param` when it does not open. */
  open(sealed: string, param: string): Promise<CompactionContent>;
}

export function compactionSealer(keys: KeyStore): CompactionSealer {
  return {
    seal: (content) => sealJson(keys, PREFIX, AAD, content),
    async open(sealed, param) {
      const parsed = CompactionContent.safeParse(await openJson(keys, PREFIX, AAD, sealed));
      if (!parsed.success)
        throw invalidRequest(
          "The encrypted content of a compaction item could not be verified: it was changed, or was made by another origin or before this origin's storage was cleared. Send the conversation without this compaction item (or compact it again with POST /v1/responses/compact).",
          param,
          Codes.invalidEncryptedContent,
        );
      return parsed.data;
    },
  };
}
