import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

let local: LocalClient;
beforeEach(async () => {
  local = await localClient();
});
afterEach(() => closeAndCheck(local));

describe('POST /v1/responses', () => {
  test('plain JSON: echoes the input and fills usage', async () => {
    const r = await local.client.responses.create({ model: 'test-scripted', input: 'hello' });
    expect(r.status).toBe('completed');
    expect(r.output_text).toBe('You said: hello');
    expect(r.usage?.output_tokens).toBe(Math.ceil('You said: hello'.length / 4));
    expect(r.usage?.input_tokens).toBeGreaterThan(0);
    expect(r.completed_at).toBeGreaterThan(0);
    const again = await local.client.responses.retrieve(r.id);
    expect(again.output).toEqual(r.output);
  });

  test('streaming yields the OpenAI event order', async () => {
    const stream = await local.client.responses.create({ model: 'test-scripted', input: 'hi there', stream: true });
    const types: string[] = [];
    const seqs: number[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      seqs.push(event.sequence_number);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe('You said: hi there');
    expect(seqs).toEqual(seqs.map((_, i) => i));
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
  });
});
