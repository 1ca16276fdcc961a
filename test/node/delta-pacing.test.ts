/**
 * An engine that decodes faster than its `deltaWindowMs` gets its tokens streamed in fewer
 * text events (see src/shared/paced-batches.ts), with nothing else changed: the same text,
 * the same items and event order, exact token counts.
 */
import { afterEach, expect, test } from 'vitest';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { closeAndCheck, localClient, script, type LocalClient } from '../support/local-client';

/** `test-scripted`, declaring a 16 ms window like the wllama engine. */
class PacedScriptedEngine extends ScriptedEngine {
  readonly deltaWindowMs = 16;
}

let local: LocalClient | undefined;
afterEach(async () => {
  if (local) await closeAndCheck(local);
  local = undefined;
});

const THINKING = 'Let me count them one by one, carefully.';
const ANSWER = 'One, two, three, four, five, six, seven, eight, nine, ten. That is all of them.';
const OUTPUT = `<think>${THINKING}</think>${ANSWER}`;

async function run(engine: ScriptedEngine, delayMs: number) {
  local = await localClient({ engine });
  const stream = await local.client.responses.create({ model: 'test-scripted', input: script(OUTPUT, { delay_ms: delayMs }), stream: true });
  const types: string[] = [];
  let reasoning = '';
  let text = '';
  let textEvents = 0;
  let completed;
  for await (const event of stream) {
    if (types.at(-1) !== event.type) types.push(event.type);
    if (event.type === 'response.reasoning_text.delta') reasoning += event.delta;
    if (event.type === 'response.output_text.delta') {
      text += event.delta;
      textEvents++;
    }
    if (event.type === 'response.completed') completed = event.response;
  }
  const stored = await local.client.responses.retrieve(completed!.id);
  await closeAndCheck(local);
  local = undefined;
  return { types, reasoning, text, textEvents, usage: completed!.usage, stored };
}

test('tokens faster than the window are merged into fewer events, and nothing else changes', async () => {
  const plain = await run(new ScriptedEngine(), 0);
  const paced = await run(new PacedScriptedEngine(), 0);

  // One event per 4-character token overlapping the answer without a window; far fewer with one.
  expect(plain.textEvents).toBeGreaterThanOrEqual(Math.ceil(ANSWER.length / 4));
  expect(paced.textEvents).toBeLessThan(plain.textEvents / 3);
  expect(paced.text).toBe(ANSWER);
  expect(paced.reasoning).toBe(THINKING);
  expect(paced.types).toEqual(plain.types);
  // Batches never blur which tokens were reasoning: a batch spanning `</think>` still counts exactly.
  expect(paced.usage).toEqual(plain.usage);
  expect(paced.usage?.output_tokens_details.reasoning_tokens).toBe(Math.ceil(`<think>${THINKING}</think>`.length / 4));
  expect(paced.stored.output_text).toBe(ANSWER);
});

test('tokens slower than the window each get their own event', async () => {
  const plain = await run(new ScriptedEngine(), 25);
  const paced = await run(new PacedScriptedEngine(), 25);
  expect(paced.textEvents).toBe(plain.textEvents);
  expect(paced.text).toBe(ANSWER);
});
