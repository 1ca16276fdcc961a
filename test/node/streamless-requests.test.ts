/**
 * Every route that reads a body, given requests as Firefox makes them (no `Request.body`;
 * test/fakes/streamless-request.ts), answers as it does for requests with a body stream:
 * the same suite runs both ways. Before, Firefox's bodies read as empty: every create was
 * a 400 "could not parse the JSON body".
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/protocol/request-limits';
import { withoutBodyStream } from '../fakes/streamless-request';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

const KINDS = [
  { name: 'requests without a body stream (Firefox)', requestAs: withoutBodyStream },
  { name: 'requests with a body stream (Chromium, Node)', requestAs: undefined },
];

for (const kind of KINDS) {
  describe(kind.name, () => {
    let local: LocalClient;
    beforeEach(async () => {
      local = await localClient(kind.requestAs ? { requestAs: kind.requestAs } : {});
    });
    afterEach(() => closeAndCheck(local));

    const json = { 'content-type': 'application/json' };
    const post = (path: string, body?: BodyInit, headers: Record<string, string> = json) =>
      local.http(path, { method: 'POST', ...(body === undefined ? {} : { body }), headers });

    test('create, plain and streamed, through the SDK', async () => {
      const plain = await local.client.responses.create({ model: 'test-scripted', input: 'hello from firefox' });
      expect(plain.output_text).toBe('You said: hello from firefox');
      const stream = await local.client.responses.create({ model: 'test-scripted', input: script('one two three'), stream: true });
      let text = '';
      for await (const event of stream) if (event.type === 'response.output_text.delta') text += event.delta;
      expect(text).toBe('one two three');
    });

    test('a Blob or bytes body, and UTF-16 by its charset', async () => {
      const body = JSON.stringify({ model: 'test-scripted', input: 'as a blob' });
      expect(((await (await post('/v1/responses', new Blob([body]))).json()) as { output_text: string }).output_text).toBe('You said: as a blob');
      const utf16 = new Uint8Array(Buffer.from(JSON.stringify({ model: 'test-scripted', input: 'héllo' }), 'utf16le'));
      const res = await post('/v1/responses', utf16, { 'content-type': 'application/json; charset=utf-16le' });
      expect(((await res.json()) as { output_text: string }).output_text).toBe('You said: héllo');
    });

    test('a body over the limit is a 413; malformed JSON and a wrong Content-Type are 400s', async () => {
      const big = await post('/v1/responses', `{"model":"test-scripted","input":"${'x'.repeat(MAX_BODY_BYTES)}"}`);
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({ error: { code: 'request_too_large' } });
      const bad = await post('/v1/responses', '{"model":');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { code: 'invalid_json' } });
      const type = await post('/v1/responses', '{}', { 'content-type': 'text/plain' });
      expect(await type.json()).toMatchObject({ error: { code: 'invalid_content_type' } });
    });

    test('conversations: created with no body at all or with items, updated, and a null body is refused', async () => {
      const empty = await local.client.conversations.create();
      expect(empty.metadata).toEqual({});
      const bare = await post('/v1/conversations', undefined, {});
      expect(bare.status).toBe(200);
      const withItems = await local.client.conversations.create({ items: [{ type: 'message', role: 'user', content: 'hi' }], metadata: { topic: 'ff' } });
      expect(withItems.metadata).toEqual({ topic: 'ff' });
      expect((await local.client.conversations.items.list(withItems.id)).data).toHaveLength(1);
      const updated = await local.client.conversations.update(withItems.id, { metadata: { topic: 'changed' } });
      expect(updated.metadata).toEqual({ topic: 'changed' });
      const nullBody = await post('/v1/conversations', 'null');
      expect(nullBody.status).toBe(400);
      const turn = await local.client.responses.create({ model: 'test-scripted', input: 'in the conversation', conversation: withItems.id });
      expect(turn.output_text).toBe('You said: in the conversation');
    });

    test('prune: a policy in the body is put in force; a bare POST keeps the one in force; a body without a JSON type is a 400', async () => {
      const pruned = await post('/v1/local/storage/prune', JSON.stringify({ retention: { max_age_days: 30, max_bytes: 5_000 } }));
      expect(await pruned.json()).toMatchObject({ object: 'local.storage.pruned', retention: { max_age_days: 30, max_bytes: 5_000 } });
      const bare = await post('/v1/local/storage/prune', undefined, {});
      expect(await bare.json()).toMatchObject({ retention: { max_age_days: 30, max_bytes: 5_000 } });
      const untyped = await post('/v1/local/storage/prune', new Uint8Array(new TextEncoder().encode('{"retention":null}')), {});
      expect(untyped.status).toBe(400);
      expect(await untyped.json()).toMatchObject({ error: { code: 'invalid_content_type' } });
    });
  });
}
