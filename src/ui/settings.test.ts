import { expect, test } from 'vitest';
import { DEFAULT_SETTINGS, requestOptions } from './settings';

test('defaults send only the temperature', () => {
  expect(requestOptions(DEFAULT_SETTINGS)).toEqual({ temperature: 0.7 });
});

test('tools, outputs of the interpreter, limits, instructions and effort', () => {
  expect(
    requestOptions({ ...DEFAULT_SETTINGS, codeInterpreter: true, webSearch: true, maxOutputTokens: 256, instructions: 'Be brief.', reasoningEffort: 'low' }),
  ).toEqual({
    temperature: 0.7,
    max_output_tokens: 256,
    instructions: 'Be brief.',
    tools: [{ type: 'code_interpreter', container: { type: 'auto' } }, { type: 'web_search' }],
    include: ['code_interpreter_call.outputs'],
    reasoning: { effort: 'low' },
  });
});
