/** A role/content message as chat templates see it. Content is plain text. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Images shown with this message (a `data:` or `https:` URL each), for models that see; engines of other models never get any. */
  images?: string[];
}
