import type { ConversationObject } from '../../protocol/conversation';
import type { StoredConversation } from '../../ports/conversation-store';

/** A stored conversation as OpenAI shows it. */
export function conversationObject(conversation: StoredConversation): ConversationObject {
  return { id: conversation.id, object: 'conversation', created_at: conversation.created_at, metadata: conversation.metadata };
}
