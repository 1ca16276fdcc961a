/**
 * The one place the app builds a turn's `POST /v1/responses` body: the turn's input (a
 * message, or the answer to an MCP approval request) in the chat's conversation — the
 * server reads the conversation's items as context and appends the turn when it finishes
 * — with the settings' options, streamed in the background (chat-store.ts says why).
 * Anything every turn of the app should send (e.g. `context_management`) goes here.
 */
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { McpTokens } from './mcp-tokens';
import type { Turn } from './saved-chat';
import { requestOptions, type Settings } from './settings';

/** `vectorStoreId`: the chat's files (chat-files.ts), searched with `file_search` when the chat has any. */
export function turnRequest(turn: Turn, conversationId: string, settings: Settings, mcpTokens: McpTokens, vectorStoreId?: string): ResponseCreateParamsStreaming & { background: true } {
  const options = requestOptions(settings, mcpTokens);
  const tools = [...(options.tools ?? []), ...(vectorStoreId ? [{ type: 'file_search' as const, vector_store_ids: [vectorStoreId] }] : [])];
  return {
    model: turn.model,
    input: turn.approval
      ? [{ type: 'mcp_approval_response', approval_request_id: turn.approval.requestId, approve: turn.approval.approve }]
      : turn.input,
    conversation: conversationId,
    ...options,
    ...(tools.length > 0 ? { tools } : {}),
    background: true,
    stream: true,
    store: true,
    context_management: [{ type: 'compaction' }], // a chat outgrowing the context window is summarized, not refused
  };
}
