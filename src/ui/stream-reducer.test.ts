import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, test } from 'vitest';
import { newTurn } from './saved-chat';
import { applyResponse, applyStreamEvent } from './stream-reducer';

const response = (patch: Partial<Response>): Response => ({ id: 'resp_1', status: 'in_progress', output: [], usage: null, error: null, incomplete_details: null, ...patch }) as Response;

function play(events: unknown[], now = 1000) {
  return events.reduce((turn: ReturnType<typeof newTurn>, event, i) => applyStreamEvent(turn, event as ResponseStreamEvent, now + i), newTurn('hi', 'm', 0));
}

describe('applyStreamEvent', () => {
  test('builds reasoning and text items from deltas, notes the first token and the last sequence number', () => {
    const turn = play([
      { type: 'response.created', sequence_number: 0, response: response({ status: 'queued' }) },
      { type: 'response.in_progress', sequence_number: 1, response: response({}) },
      { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { type: 'reasoning', id: 'rs_1', summary: [], content: [] } },
      { type: 'response.content_part.added', sequence_number: 3, output_index: 0, content_index: 0, item_id: 'rs_1', part: { type: 'reasoning_text', text: '' } },
      { type: 'response.reasoning_text.delta', sequence_number: 4, output_index: 0, content_index: 0, item_id: 'rs_1', delta: 'Think' },
      { type: 'response.reasoning_text.delta', sequence_number: 5, output_index: 0, content_index: 0, item_id: 'rs_1', delta: 'ing' },
      { type: 'response.output_item.added', sequence_number: 6, output_index: 1, item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] } },
      { type: 'response.content_part.added', sequence_number: 7, output_index: 1, content_index: 0, item_id: 'msg_1', part: { type: 'output_text', text: '', annotations: [] } },
      { type: 'response.output_text.delta', sequence_number: 8, output_index: 1, content_index: 0, item_id: 'msg_1', delta: 'Hel', logprobs: [] },
      { type: 'response.output_text.delta', sequence_number: 9, output_index: 1, content_index: 0, item_id: 'msg_1', delta: 'lo', logprobs: [] },
      {
        type: 'response.output_text.annotation.added',
        sequence_number: 10,
        output_index: 1,
        content_index: 0,
        item_id: 'msg_1',
        annotation_index: 0,
        annotation: { type: 'url_citation', url: 'https://e.x/', title: 'E', start_index: 0, end_index: 5 },
      },
    ]);
    expect(turn.responseId).toBe('resp_1');
    expect(turn.status).toBe('in_progress');
    expect(turn.firstTokenAt).toBe(1004);
    expect(turn.lastSequence).toBe(10);
    expect(turn.output[0]).toMatchObject({ type: 'reasoning', content: [{ type: 'reasoning_text', text: 'Thinking' }] });
    expect(turn.output[1]).toMatchObject({ type: 'message', content: [{ type: 'output_text', text: 'Hello', annotations: [{ url: 'https://e.x/' }] }] });
  });

  test('function call arguments and interpreter code stream in; statuses follow the tool events', () => {
    const turn = play([
      { type: 'response.output_item.added', sequence_number: 0, output_index: 0, item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', sequence_number: 1, output_index: 0, item_id: 'fc_1', delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', sequence_number: 2, output_index: 0, item_id: 'fc_1', delta: '1}' },
      {
        type: 'response.output_item.added',
        sequence_number: 3,
        output_index: 1,
        item: { type: 'code_interpreter_call', id: 'ci_1', status: 'in_progress', code: '', container_id: 'c', outputs: null },
      },
      { type: 'response.code_interpreter_call_code.delta', sequence_number: 4, output_index: 1, item_id: 'ci_1', delta: 'print(' },
      { type: 'response.code_interpreter_call_code.delta', sequence_number: 5, output_index: 1, item_id: 'ci_1', delta: '1)' },
      { type: 'response.code_interpreter_call.interpreting', sequence_number: 6, output_index: 1, item_id: 'ci_1' },
    ]);
    expect(turn.output[0]).toMatchObject({ arguments: '{"a":1}' });
    expect(turn.output[1]).toMatchObject({ code: 'print(1)', status: 'interpreting' });
  });

  test('the terminal event replaces the output with the final response and sets usage and the end time', () => {
    const final = response({
      status: 'completed',
      output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done', annotations: [] }] }],
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    });
    const turn = play([{ type: 'response.completed', sequence_number: 9, response: final }], 5000);
    expect(turn).toMatchObject({ status: 'completed', finishedAt: 5000, usage: { output_tokens: 2 }, lastSequence: 9 });
    expect(turn.output).toEqual(final.output);
  });

  test('an MCP call: arguments stream in and its status follows the mcp_call events', () => {
    const added = { type: 'mcp_call', id: 'mcp_1', server_label: 'calc', name: 'add', arguments: '', status: 'in_progress', output: null, error: null, approval_request_id: null };
    const calling = play([
      { type: 'response.output_item.added', sequence_number: 0, output_index: 0, item: added },
      { type: 'response.mcp_call.in_progress', sequence_number: 1, output_index: 0, item_id: 'mcp_1' },
      { type: 'response.mcp_call_arguments.delta', sequence_number: 2, output_index: 0, item_id: 'mcp_1', delta: '{"a":' },
      { type: 'response.mcp_call_arguments.delta', sequence_number: 3, output_index: 0, item_id: 'mcp_1', delta: '1}' },
    ]);
    expect(calling.output[0]).toMatchObject({ arguments: '{"a":1}', status: 'in_progress' });
    const done = [
      { type: 'response.mcp_call_arguments.done', sequence_number: 4, output_index: 0, item_id: 'mcp_1', arguments: '{"a":2}' },
      { type: 'response.mcp_call.failed', sequence_number: 5, output_index: 0, item_id: 'mcp_1' },
    ].reduce((turn, event) => applyStreamEvent(turn, event as ResponseStreamEvent, 0), calling);
    expect(done.output[0]).toMatchObject({ arguments: '{"a":2}', status: 'failed' });
    expect(done.lastSequence).toBe(5);
  });

  test('an error event fails the turn with its message', () => {
    const turn = play([{ type: 'error', sequence_number: 1, code: 'x', message: 'Boom', param: null }]);
    expect(turn).toMatchObject({ status: 'failed', error: 'Boom' });
  });
});

describe('applyResponse', () => {
  test('while the response runs, keeps the output built from events (it matches lastSequence)', () => {
    const streamed = play([
      { type: 'response.output_item.added', sequence_number: 0, output_index: 0, item: { type: 'message', id: 'm', role: 'assistant', status: 'in_progress', content: [] } },
    ]);
    const turn = applyResponse(streamed, response({ status: 'in_progress', output: [] }), 1);
    expect(turn.output).toBe(streamed.output);
    expect(turn.finishedAt).toBeNull();
  });

  test('a cancelled response ends the turn with its partial output', () => {
    const turn = applyResponse(newTurn('x', 'm', 0), response({ status: 'cancelled', output: [] }), 42);
    expect(turn).toMatchObject({ status: 'cancelled', finishedAt: 42, responseId: 'resp_1' });
  });

  test('a stop at a token limit is the output limit only when one was set and reached; otherwise the context window filled', () => {
    const usage = (output_tokens: number) => ({ input_tokens: 10, output_tokens, total_tokens: 10 + output_tokens }) as Response['usage'];
    const cut = (patch: Partial<Response>) =>
      applyResponse(newTurn('x', 'm', 0), response({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, ...patch }), 1).incompleteReason;
    expect(cut({ max_output_tokens: null, usage: usage(500) })).toBe('context_window');
    expect(cut({ max_output_tokens: 1000, usage: usage(500) })).toBe('context_window');
    expect(cut({ max_output_tokens: 500, usage: usage(500) })).toBe('max_output_tokens');
    expect(cut({ incomplete_details: { reason: 'content_filter' } })).toBe('content_filter');
  });
});
