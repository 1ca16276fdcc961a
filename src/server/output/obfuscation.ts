/**
 * `stream_options.include_obfuscation: true`: OpenAI pads delta events with a random
 * `obfuscation` string so their sizes do not reveal the tokens to someone watching the
 * encrypted network traffic. Here the stream never leaves the machine, so it is off unless
 * asked for (it only costs bytes); when asked, every delta event gets the field, as OpenAI's do.
 */
import { OBFUSCATED_DELTA_EVENTS as DELTA_EVENTS, type StreamEvent } from '../../protocol/stream-events';


const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 1–16 random characters: enough to blur a delta's length, which is the point. */
function padding(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(17));
  const length = 1 + (bytes[0]! % 16);
  let out = '';
  for (let i = 1; i <= length; i++) out += ALPHABET[bytes[i]! % ALPHABET.length];
  return out;
}

export function obfuscate(event: StreamEvent): StreamEvent {
  return DELTA_EVENTS.has(event.type) ? ({ ...event, obfuscation: padding() } as StreamEvent) : event;
}

export async function* obfuscated(events: AsyncIterable<StreamEvent>): AsyncGenerator<StreamEvent> {
  for await (const event of events) yield obfuscate(event);
}
