/**
 * How any builtin call reads to the model: the function call it made and the output it was
 * shown — in the round that made it and in every later turn that replays it — plus the
 * arguments as the model wrote them (a JSON object, or nothing usable).
 */
import type { ConversationItem } from '../chat/chat-format';

export function callConversation(name: string, callId: string, args: Record<string, unknown>, shown: string): ConversationItem[] {
  return [
    { type: 'function_call', call_id: callId, name, arguments: JSON.stringify(args) },
    { type: 'function_call_output', call_id: callId, output: shown },
  ];
}

/** The model's arguments as an object; anything else (invalid JSON, an array) is no arguments. */
export function parseArgs(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
