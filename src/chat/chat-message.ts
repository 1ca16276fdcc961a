/** A role/content message as chat templates see it. Content is plain text. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}
