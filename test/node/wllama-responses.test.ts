/**
 * The CPU engine behind `/v1/responses`, in Node: the real server and WllamaEngine over the
 * wllama fake (test/fakes/fake-wllama.ts: one token per prompt character, a slot KV cache
 * reused like llama.cpp's, logprobs with `n_probs`). What the real llama.cpp does is checked
 * in Chromium (test/e2e/wllama.test.ts); this checks what the server makes of it.
 */
import { afterEach, expect, test } from 'vitest';
import type { ResponseOutputText, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { FakeWllama, fakeLogprob } from '../fakes/fake-wllama';
import { GGUF_CATALOG } from '../../src/engine/wllama/gguf-catalog';
import { WllamaEngine } from '../../src/engine/wllama/engine';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

let local: LocalClient | undefined;
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
});

const model = 'Qwen2.5-0.5B-Instruct-Q4_K_M-GGUF';
const include = ['message.output_text.logprobs' as const];
const bytes = (text: string) => [...new TextEncoder().encode(text)];

function wllamaClient(fake: FakeWllama) {
  const engine = new WllamaEngine({ catalog: GGUF_CATALOG, modelBase: 'https://mirror.example/gguf/', wasmUrl: 'https://app.example/wllama.wasm', createWllama: () => fake });
  return localClient({ engine });
}

const textPart = (response: { output: Array<{ type: string; content?: unknown[] }> }) =>
  response.output.find((item) => item.type === 'message')!.content![0] as ResponseOutputText;

test('a previous_response_id turn reuses the KV cache of the turn before: cached_tokens in usage', async () => {
  const fake = new FakeWllama({}, [{ tokens: ['Hel', 'lo', '!'] }, { tokens: ['Fine.'] }]);
  local = await wllamaClient(fake);
  const first = await local.client.responses.create({ model, input: 'Hi', temperature: 0 });
  expect(first.usage?.input_tokens_details.cached_tokens).toBe(0);
  const second = await local.client.responses.create({ model, input: 'How are you?', previous_response_id: first.id, temperature: 0 });
  // Turn 2's prompt starts with turn 1's prompt and reply (as re-rendered): only the rest is new.
  const [turn1, turn2] = fake.completions.map((c) => c.prompt);
  expect(turn2!.startsWith(`${turn1}Hello!`)).toBe(true);
  expect(second.usage?.input_tokens).toBe(turn2!.length + 1);
  expect(second.usage?.input_tokens_details.cached_tokens).toBe(turn1!.length + 1 + 'Hello!'.length);
});

test('logprobs: the output text tokens with top_logprobs alternatives, plain and streamed', async () => {
  const fake = new FakeWllama({}, [{ tokens: ['Hel', 'lo', '!'] }, { tokens: ['Hel', 'lo', '!'] }]);
  local = await wllamaClient(fake);
  const entry = (token: string, i: number, top: number) => ({
    token,
    logprob: fakeLogprob(i),
    bytes: bytes(token),
    top_logprobs: [{ token, logprob: fakeLogprob(i), bytes: bytes(token) }, ...Array.from({ length: top - 1 }, (_, k) => ({ token: `alt ${k + 1}`, logprob: fakeLogprob(i) - (k + 1), bytes: bytes(`alt ${k + 1}`) }))],
  });
  const response = await local.client.responses.create({ model, input: 'Hi', top_logprobs: 2, include });
  expect(response.output_text).toBe('Hello!');
  expect(textPart(response).logprobs).toEqual([entry('Hel', 0, 2), entry('lo', 1, 2), entry('!', 2, 2)]);
  expect(fake.completions[0]!.n_probs).toBe(2);

  const stream = await local.client.responses.create({ model, input: 'Hi', top_logprobs: 2, include, stream: true });
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const streamed = events.flatMap((e) => (e.type === 'response.output_text.delta' ? e.logprobs : []));
  expect(streamed).toEqual(textPart(response).logprobs);
});

test('a custom tool’s grammar holds the generation: llama.cpp gets the call grammar (GBNF), the call comes back as a custom_tool_call', async () => {
  const { compileEbnf } = await import('../support/xgrammar');
  const call = '<tool_call>\n{"name": "sku", "arguments": {"input": "ABC-42"}}\n</tool_call>';
  const fake = new FakeWllama({}, [{ tokens: [call.slice(0, 20), call.slice(20)] }]);
  local = await wllamaClient(fake);
  const tools = [{ type: 'custom' as const, name: 'sku', format: { type: 'grammar' as const, syntax: 'regex' as const, definition: '[A-Z]{3}-\\d+' } }];
  const response = await local.client.responses.create({ model, input: 'Which SKU?', tools, tool_choice: { type: 'custom', name: 'sku' } });
  expect(response.output[0]).toMatchObject({ type: 'custom_tool_call', name: 'sku', input: 'ABC-42' });
  const grammar = fake.completions[0]!.grammar!;
  expect(grammar).toMatch(/^root ::= /);
  // The grammar llama.cpp got accepts exactly calls of sku whose input matches the regex.
  const accepts = await compileEbnf(grammar);
  expect(await accepts(call)).toBe(true);
  expect(await accepts(call.replace('ABC-42', 'abc-42'))).toBe(false);
  expect(await accepts('A plain answer.')).toBe(false);
});

test('a custom tool’s Lark grammar too; a grammar that cannot be read is a 400 naming its definition', async () => {
  local = await wllamaClient(new FakeWllama({}, [{ tokens: ['Fine.'] }]));
  const lark = { type: 'grammar' as const, syntax: 'lark' as const, definition: 'start: "go " DIR\nDIR: "north" | "south"' };
  const ok = await local.client.responses.create({ model, input: 'Go', tools: [{ type: 'custom', name: 'move', format: lark }] });
  expect(ok.output_text).toBe('Fine.');
  const bad = { type: 'grammar' as const, syntax: 'regex' as const, definition: 'a(?=b)' };
  const refused = await local.client.responses.create({ model, input: 'x', tools: [{ type: 'custom', name: 'move', format: bad }] }).catch((e: unknown) => e as { status: number; error: { param: string; message: string } });
  expect(refused).toMatchObject({ status: 400, error: { param: 'tools[0].format.definition' } });
  expect(refused.error!.message).toMatch(/lookahead is not supported/);
});
