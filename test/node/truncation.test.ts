/**
 * `truncation: "auto"` (issue 13, item 4): a conversation longer than the context window
 * loses its oldest turns until it fits, as OpenAI does; `disabled` (the default) keeps the 400.
 */
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { GenerateRequest, Generation, ModelInfo } from '../../src/ports/engine';
import { ScriptedEngine } from '../../src/engine/scripted-engine';
import { closeAndCheck, localClient, type LocalClient } from '../support/local-client';

const WINDOW = 400;

/** The scripted model with a small context window, recording the prompts it is given. */
class SmallWindowEngine extends ScriptedEngine {
  readonly prompts: string[] = [];
  override models(): ModelInfo[] {
    return super.models().map((m) => ({ ...m, context_window: WINDOW }));
  }
  override generate(request: GenerateRequest): Generation {
    this.prompts.push(request.input.prompt);
    return super.generate(request);
  }
}

let local: LocalClient;
let engine: SmallWindowEngine;
beforeEach(async () => {
  engine = new SmallWindowEngine();
  local = await localClient({ engine });
});
afterEach(() => closeAndCheck(local));

const model = 'test-scripted';
const long = (word: string) => `${word} `.repeat(60).trim(); // ~90 tokens; echoed back, ~2x per turn

test('the oldest turns are dropped until the input fits; disabled answers 400', async () => {
  const first = await local.client.responses.create({ model, input: long('alpha') });
  const second = await local.client.responses.create({ model, input: long('beta'), previous_response_id: first.id });
  const next = { model, input: long('gamma'), previous_response_id: second.id };

  await expect(local.client.responses.create(next)).rejects.toMatchObject({ status: 400, code: 'context_length_exceeded' });
  await expect(local.client.responses.create({ ...next, truncation: 'disabled' })).rejects.toMatchObject({ status: 400 });

  const counted = await local.client.responses.inputTokens.count({ ...next, truncation: 'auto' });
  const third = await local.client.responses.create({ ...next, truncation: 'auto' });
  expect(third.truncation).toBe('auto');
  expect(third.usage!.input_tokens).toBeLessThanOrEqual(WINDOW);
  expect(third.usage!.input_tokens).toBe(counted.input_tokens);
  const prompt = engine.prompts.at(-1)!;
  expect(prompt).not.toContain('alpha');
  expect(prompt).toContain('beta'); // only as much as needed is dropped
  expect(prompt).toContain('gamma');
});

test('an input whose newest turn alone is too long is still a 400 with truncation auto', async () => {
  await expect(local.client.responses.create({ model, input: long('delta').repeat(8), truncation: 'auto' })).rejects.toMatchObject({
    status: 400,
    code: 'context_length_exceeded',
  });
});
