/**
 * A chat as a JSON file: its conversation id (to continue it from code), its turns, and
 * each turn's stored response as the server has it, when the page knows which it is (turns
 * answered since the page opened; a conversation's items do not name their response).
 */
import type { Api } from './api';
import type { Conversation } from './saved-chat';

export async function exportChat(api: Api | null, conversation: Conversation): Promise<string> {
  const turns = await Promise.all(
    conversation.turns.map(async (turn) => {
      let response: unknown = null;
      if (turn.responseId && api) {
        response = await api.client.responses.retrieve(turn.responseId, { include: ['code_interpreter_call.outputs', 'web_search_call.action.sources'] }).catch(() => null);
      }
      return { input: turn.input, model: turn.model, response_id: turn.responseId, status: turn.status, output: turn.output, usage: turn.usage, response };
    }),
  );
  const exported = {
    object: 'local_responses.conversation',
    exported_at: new Date().toISOString(),
    id: conversation.id,
    title: conversation.title,
    created_at: new Date(conversation.createdAt).toISOString(),
    turns,
  };
  return JSON.stringify(exported, null, 2);
}
