import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  specAvailable,
  validateErrorBody,
  validateItem,
  validateResponseObject,
  validateStreamEvent,
} from './openresponses-validator';

/** Every one of ResponseResource's 31 required properties, with the smallest valid values. */
function minimalResponse(): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    completed_at: 1_700_000_001,
    status: 'completed',
    incomplete_details: null,
    model: 'qwen3-0.6b',
    previous_response_id: null,
    instructions: null,
    output: [
      {
        type: 'message',
        id: 'msg_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello!', annotations: [] }],
      },
    ],
    error: null,
    tools: [],
    tool_choice: 'auto',
    truncation: 'disabled',
    parallel_tool_calls: true,
    text: { format: { type: 'text' } },
    // The spec types these as plain number/integer/string/boolean: null is not allowed.
    top_p: 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: 0,
    temperature: 1,
    reasoning: null,
    usage: {
      input_tokens: 5,
      output_tokens: 2,
      total_tokens: 7,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
    max_output_tokens: null,
    max_tool_calls: null,
    store: true,
    background: false,
    service_tier: 'default',
    metadata: {},
    safety_identifier: null,
    prompt_cache_key: null,
  };
}

function errorOf(fn: () => void): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a validation error, but the value validated');
}

describe.skipIf(!specAvailable)('validateResponseObject', () => {
  it('accepts a minimal response with all 31 required properties', () => {
    expect(Object.keys(minimalResponse())).toHaveLength(31);
    expect(() => validateResponseObject(minimalResponse())).not.toThrow();
  });

  it('names a missing required property', () => {
    const response = minimalResponse();
    delete response.presence_penalty;
    expect(errorOf(() => validateResponseObject(response))).toMatch(
      /\(root\): must have required property 'presence_penalty'/,
    );
  });

  it('shows the path and offending value of a wrong type', () => {
    const message = errorOf(() => validateResponseObject({ ...minimalResponse(), top_p: null }));
    expect(message).toContain('/top_p: must be number (got null)');
  });

  it('reports only the matching branch of a discriminated union', () => {
    const response = minimalResponse();
    response.output = [
      {
        type: 'message',
        id: 'msg_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hi' }],
      },
    ];
    const message = errorOf(() => validateResponseObject(response));
    expect(message).toContain("/output/0/content/0: must have required property 'annotations'");
    expect(message).toMatch(/\(1 problem\)/);
  });

  it('accepts function tools, a forced tool choice, reasoning and function-call items', () => {
    const response: Record<string, unknown> = {
      ...minimalResponse(),
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: null,
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
        },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      reasoning: { effort: 'low', summary: null },
      output: [
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [],
          content: [{ type: 'reasoning_text', text: 'The user wants the weather.' }],
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_weather',
          arguments: '{"city":"Paris"}',
          status: 'completed',
        },
      ],
    };
    expect(() => validateResponseObject(response)).not.toThrow();
  });

  it('accepts a failed response with an Error', () => {
    const response = {
      ...minimalResponse(),
      status: 'failed',
      completed_at: null,
      output: [],
      usage: null,
      error: { code: 'server_error', message: 'The model crashed.' },
    };
    expect(() => validateResponseObject(response)).not.toThrow();
  });
});

describe.skipIf(!specAvailable)('validateStreamEvent', () => {
  const delta = {
    type: 'response.output_text.delta',
    sequence_number: 4,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'Hel',
    logprobs: [],
  };

  it('accepts a valid response.output_text.delta', () => {
    expect(() => validateStreamEvent(delta)).not.toThrow();
  });

  it('rejects a response.output_text.delta without delta', () => {
    const { delta: _omitted, ...event } = delta;
    expect(errorOf(() => validateStreamEvent(event))).toMatch(
      /stream event response\.output_text\.delta .*\n.*must have required property 'delta'/,
    );
  });

  it('checks OpenAI reasoning_text events against the spec reasoning events', () => {
    expect(() =>
      validateStreamEvent({
        type: 'response.reasoning_text.delta',
        sequence_number: 3,
        item_id: 'rs_1',
        output_index: 0,
        content_index: 0,
        delta: 'Thinking',
      }),
    ).not.toThrow();
    expect(() =>
      validateStreamEvent({
        type: 'response.reasoning_text.done',
        sequence_number: 5,
        item_id: 'rs_1',
        output_index: 0,
        content_index: 0,
        text: 'Thinking',
      }),
    ).not.toThrow();
    const message = errorOf(() =>
      validateStreamEvent({
        type: 'response.reasoning_text.done',
        sequence_number: 5,
        item_id: 'rs_1',
        output_index: 0,
        content_index: 0,
      }),
    );
    expect(message).toContain("must have required property 'text'");
    // The report shows the event as we sent it, under OpenAI's name.
    expect(message).toContain('"type":"response.reasoning_text.done"');
  });

  it('throws for an event type the spec has no schema for', () => {
    expect(() =>
      validateStreamEvent({ type: 'response.web_search_call.searching', sequence_number: 1 }),
    ).toThrow('no schema for event type response.web_search_call.searching');
    expect(() => validateStreamEvent({ sequence_number: 1 })).toThrow(/no string "type"/);
  });

  it('validates the response inside lifecycle events', () => {
    const event = { type: 'response.completed', sequence_number: 9, response: minimalResponse() };
    expect(() => validateStreamEvent(event)).not.toThrow();
    const broken = { ...event, response: { ...minimalResponse(), temperature: null } };
    expect(errorOf(() => validateStreamEvent(broken))).toContain(
      '/response/temperature: must be number (got null)',
    );
  });

  it('accepts output_item.added with an in-progress empty message', () => {
    expect(() =>
      validateStreamEvent({
        type: 'response.output_item.added',
        sequence_number: 2,
        output_index: 0,
        item: { type: 'message', id: 'msg_1', status: 'in_progress', role: 'assistant', content: [] },
      }),
    ).not.toThrow();
  });

  it('accepts an error event carrying both OpenAI top-level fields and the spec payload', () => {
    expect(() =>
      validateStreamEvent({
        type: 'error',
        sequence_number: 7,
        code: 'server_error',
        message: 'The model crashed.',
        param: null,
        error: { type: 'server_error', code: 'server_error', message: 'The model crashed.', param: null },
      }),
    ).not.toThrow();
  });
});

describe.skipIf(!specAvailable)('validateErrorBody', () => {
  it('accepts {error: ErrorPayload} with null code and param', () => {
    expect(() =>
      validateErrorBody({
        error: { type: 'invalid_request_error', code: null, param: null, message: 'Bad input.' },
      }),
    ).not.toThrow();
  });

  it('rejects a payload without param, and a body without error', () => {
    expect(
      errorOf(() => validateErrorBody({ error: { type: 'x', code: null, message: 'm' } })),
    ).toContain("/error: must have required property 'param'");
    expect(errorOf(() => validateErrorBody({ message: 'm' }))).toContain(
      "(root): must have required property 'error'",
    );
  });
});

describe.skipIf(!specAvailable)('validateItem', () => {
  it('accepts an input_items entry: a user message with input_text parts', () => {
    expect(() =>
      validateItem({
        type: 'message',
        id: 'msg_in_1',
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_text', text: 'Hi there' }],
      }),
    ).not.toThrow();
  });

  it('requires id and status on messages, and a known item type', () => {
    const message = errorOf(() =>
      validateItem({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }),
    );
    expect(message).toContain("must have required property 'id'");
    expect(message).toContain("must have required property 'status'");
    expect(errorOf(() => validateItem({ type: 'web_search_call', id: 'ws_1' }))).toContain(
      'value of tag "type" must be in oneOf (got "web_search_call")',
    );
  });
});

describe('when the spec file is missing', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.doMock('node:fs', async (importOriginal) => {
      const actual = await importOriginal<typeof import('node:fs')>();
      const readFileSync = () => {
        throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
      };
      return { ...actual, default: { ...actual, readFileSync }, readFileSync };
    });
  });
  afterEach(() => {
    vi.doUnmock('node:fs');
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('under CI, fails at load saying what is missing', async () => {
    vi.stubEnv('CI', 'true');
    await expect(import('./openresponses-validator')).rejects.toThrow(/openresponses-openapi\.json not found, and this is a CI run/);
  });

  it('sets specAvailable=false, says so, and makes every validator a no-op', async () => {
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const fallback = await import('./openresponses-validator');
      expect(fallback.specAvailable).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not found.*DISABLED/));
      expect(() => fallback.validateResponseObject({})).not.toThrow();
      expect(() => fallback.validateStreamEvent({ type: 'nope' })).not.toThrow();
      expect(() => fallback.validateErrorBody(null)).not.toThrow();
      expect(() => fallback.validateItem(42)).not.toThrow();
    } finally {
      warn.mockRestore();
    }
  });
});
