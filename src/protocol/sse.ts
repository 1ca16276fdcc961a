/**
 * Server-sent events, as OpenAI sends them: `event: <type>` + `data: <json>` per event,
 * and a final `data: [DONE]`. The decoder is byte-exact across arbitrary chunk splits,
 * including splits inside a line and inside a multi-byte UTF-8 character.
 */
export interface SseMessage {
  event: string | null;
  data: string;
}

export const SSE_DONE = 'data: [DONE]\n\n';

export function encodeSseEvent(event: { type: string }): string {
  // JSON.stringify never emits raw newlines, so one `data:` line is always enough.
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** Incremental decoder: feed bytes, get complete messages. */
export class SseDecoder {
  private readonly text = new TextDecoder();
  private buffer = '';
  private event: string | null = null;
  private data: string[] = [];

  push(chunk: Uint8Array): SseMessage[] {
    this.buffer += this.text.decode(chunk, { stream: true });
    return this.drainLines();
  }

  /** End of stream: a message not terminated by a blank line is still delivered. */
  end(): SseMessage[] {
    this.buffer += this.text.decode();
    const out = this.drainLines();
    if (this.buffer) out.push(...this.line(this.buffer));
    this.buffer = '';
    const last = this.dispatch();
    if (last) out.push(last);
    return out;
  }

  private drainLines(): SseMessage[] {
    const out: SseMessage[] = [];
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) !== -1) {
      // A lone '\r' at the very end may be the first half of '\r\n': wait for more.
      if (this.buffer[nl] === '\r' && nl === this.buffer.length - 1) break;
      const width = this.buffer.startsWith('\r\n', nl) ? 2 : 1;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + width);
      out.push(...this.line(line));
    }
    return out;
  }

  private line(line: string): SseMessage[] {
    if (line === '') {
      const msg = this.dispatch();
      return msg ? [msg] : [];
    }
    if (line.startsWith(':')) return [];
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return [];
  }

  private dispatch(): SseMessage | null {
    if (this.data.length === 0 && this.event === null) return null;
    const msg = { event: this.event, data: this.data.join('\n') };
    this.event = null;
    this.data = [];
    return msg;
  }
}

/**
 * Reads an SSE body as messages (tests and page-side clients: the app, the test client).
 * Leaving early (break, throw) or aborting `signal` cancels the body, so the server sees
 * the client go (e.g. a model download stops); an abort rejects with `signal.reason`.
 *
 * @example
 * for await (const m of readSse(response.body, signal)) if (m.data === '[DONE]') break; else use(JSON.parse(m.data));
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseMessage> {
  const decoder = new SseDecoder();
  const reader = body.getReader();
  let finished = false;
  const cancel = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    signal?.throwIfAborted();
    for (;;) {
      const { value, done } = await reader.read();
      // A cancel (the abort above) ends the read as `done`: that is not the end of the body.
      signal?.throwIfAborted();
      if (done) break;
      yield* decoder.push(value);
    }
    finished = true;
    yield* decoder.end();
  } finally {
    signal?.removeEventListener('abort', cancel);
    if (finished) reader.releaseLock();
    else cancel();
  }
}
