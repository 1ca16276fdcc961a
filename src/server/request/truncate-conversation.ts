/**
 * `truncation: "auto"`: when the conversation does not fit the context window, the oldest
 * items are dropped until it does, as OpenAI does. Dropped a whole turn at a time — a turn
 * runs from a user message to the next one — so a function call never loses its output and
 * an answer never loses its question. System and developer messages are kept wherever they
 * are: they are standing instructions, not history. The newest turn is never dropped; if it
 * alone does not fit, the caller answers with the usual 400.
 */
import type { ConversationItem } from '../../chat/chat-format';

/** The conversation split before each user message (anything before the first one is turn 0). */
export function turnsOf(conversation: readonly ConversationItem[]): ConversationItem[][] {
  const turns: ConversationItem[][] = [];
  for (const item of conversation) {
    if (turns.length === 0 || (item.type === 'message' && item.role === 'user')) turns.push([]);
    turns.at(-1)!.push(item);
  }
  return turns;
}

const isInstruction = (item: ConversationItem) => item.type === 'message' && (item.role === 'system' || item.role === 'developer');

/** The conversation with its first `dropped` turns removed (their instructions kept). */
export function dropTurns(turns: readonly ConversationItem[][], dropped: number): ConversationItem[] {
  return [...turns.slice(0, dropped).flat().filter(isInstruction), ...turns.slice(dropped).flat()];
}

/**
 * The longest tail of whole turns whose size (`measure`, in tokens) is at most `limit`; the
 * newest turn alone when even that is too long. Dropping more never makes it longer, so the
 * fewest turns to drop is found by bisection: a few renders, not one per turn.
 */
export async function truncateToFit(
  conversation: readonly ConversationItem[],
  limit: number,
  measure: (conversation: ConversationItem[]) => Promise<number>,
): Promise<ConversationItem[]> {
  const turns = turnsOf(conversation);
  let low = 0; // too long with this many dropped (the caller measured the whole conversation)
  let high = turns.length - 1; // the most that may be dropped: all but the newest turn
  if ((await measure(dropTurns(turns, high))) > limit) return dropTurns(turns, high);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if ((await measure(dropTurns(turns, middle))) <= limit) high = middle;
    else low = middle;
  }
  return dropTurns(turns, high);
}
