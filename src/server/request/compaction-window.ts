/**
 * What the model sees of a conversation that holds compaction items. The latest compaction
 * item stands for everything before it except its `tail`: the items just before it that it
 * left in view (the user messages `POST /v1/responses/compact` keeps, or the turn an
 * automatic compaction was made for). Its summary is shown as a developer note where the
 * replaced items were; system and developer messages among them are kept, as truncation
 * keeps them (standing instructions, not history). Older compaction items are covered by
 * the latest one's summary and are not shown.
 */
import type { ConversationItem } from '../../chat/chat-format';
import type { Compaction, StoredItem } from '../../protocol/output-items';
import { toConversation } from '../model-view/to-conversation';
import type { CompactionContent } from '../sealing/compaction-sealer';
import type { ToolRegistry } from '../state/tool-registry';

export type OpenCompaction = (item: Compaction) => Promise<CompactionContent>;

export const SUMMARY_NOTE = 'Summary of the earlier conversation: ';

export function summaryNote(summary: string): ConversationItem {
  return { type: 'message', role: 'developer', text: SUMMARY_NOTE + summary };
}

const isInstruction = (item: StoredItem) => item.type === 'message' && (item.role === 'system' || item.role === 'developer');

/** The stored items as the model is shown them, the latest compaction applied. */
export async function windowConversation(items: readonly StoredItem[], tools: ToolRegistry, open: OpenCompaction): Promise<ConversationItem[]> {
  const at = items.findLastIndex((item) => item.type === 'compaction');
  if (at < 0) return toConversation(items, tools);
  const latest = items[at] as Compaction;
  const { summary, tail } = await open(latest);
  const start = Math.max(0, at - tail);
  const kept = [...items.slice(start, at), ...items.slice(at + 1)].filter((item) => item.type !== 'compaction');
  return [...toConversation(items.slice(0, start).filter(isInstruction), tools), summaryNote(summary), ...toConversation(kept, tools)];
}

/** Where the newest turn begins: its user message (or the start). A compaction made now leaves it in view. */
export function newestTurnStart(items: readonly StoredItem[]): number {
  const at = items.findLastIndex((item) => item.type === 'message' && item.role === 'user');
  return Math.max(0, at);
}
