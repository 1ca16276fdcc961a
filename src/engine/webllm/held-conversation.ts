/**
 * What web-llm holds after a turn — the conversation with its raw last reply, and how many
 * tokens its KV cache has — so the next turn can send that reply back in place of our
 * re-rendering of it (kv-reuse.ts says when that is right) and keep the cache.
 */
import type { ChatCompletionMessageParam } from '@mlc-ai/web-llm';
import type { ChatFormat } from '../../chat/chat-format';
import { estimateTokens } from '../token-estimate';
import type { CatalogEntry } from './catalog';
import type { GenerationEnd } from './generation';
import { callNamesIn, sameReply, withHeldReply } from './kv-reuse';
import { plain } from './messages';

/** Tokens kept free for the reply when a reused history is longer than the template's. */
const REUSE_HEADROOM_TOKENS = 256;

interface KvState {
  variantId: string;
  messages: Array<{ role: string; content: string }>;
  tokens: number;
}

/** A generation's messages as sent, for {@link HeldConversation.after}. */
export interface SentConversation {
  messages: ChatCompletionMessageParam[];
  variantId: string;
  cachedTokens: number;
}

export class HeldConversation {
  private kv: KvState | null = null;

  constructor(private readonly formats: Record<string, ChatFormat>) {}

  /** Forgets what web-llm holds (a model switch, a failure, an aborted turn). */
  clear(): void {
    this.kv = null;
  }

  /**
   * Sends web-llm's own copy of its last reply instead of our re-rendering of it, when both
   * say the same, so that it keeps its KV cache. Not when the reused history (earlier
   * reasoning kept) would leave too little of the context window.
   */
  reuse(entry: CatalogEntry, variantId: string, messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] {
    const kv = this.kv;
    const format = this.formats[entry.chat_format];
    if (!kv || kv.variantId !== variantId || !format) return messages;
    const last = messages.at(-1);
    const added = estimateTokens(typeof last?.content === 'string' ? last.content : '');
    if (kv.tokens + added + REUSE_HEADROOM_TOKENS > entry.context_window) return messages;
    return withHeldReply(kv.messages, messages, (rendered, raw) => sameReply(format, callNamesIn([rendered, raw]), rendered, raw)).messages;
  }

  /** The tokens web-llm will take from its cache for `messages`: all it holds when they extend it by one message. */
  cachedTokens(variantId: string, messages: ChatCompletionMessageParam[]): number {
    const kv = this.kv;
    if (!kv || kv.variantId !== variantId || messages.length !== kv.messages.length + 1) return 0;
    const same = kv.messages.every((m, i) => {
      const other = plain(messages[i]!);
      return m.role === other.role && m.content === other.content;
    });
    return same ? kv.tokens : 0;
  }

  /** After a generation: what web-llm now holds, when it ended cleanly (else nothing is assumed). */
  after(end: GenerationEnd, sent: SentConversation | null): void {
    if (!sent || end.finish !== 'stop' || end.engineFinish !== 'stop' || !end.usage || end.text === null) {
      this.kv = null;
      return;
    }
    const prompt = sent.cachedTokens + end.usage.prompt_tokens;
    this.kv = {
      variantId: sent.variantId,
      messages: [...sent.messages.map(plain), { role: 'assistant', content: end.text }],
      tokens: prompt + Math.max(0, end.usage.completion_tokens - 1),
    };
  }
}
