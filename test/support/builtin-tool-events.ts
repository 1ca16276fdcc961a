/**
 * The stream event order of builtin tool calls, written once for the Node tests
 * (test/node/builtin-tools.test.ts) and the browser ones (test/e2e/builtin-tools.test.ts):
 * both run the same scripted turns, so they must expect the same events.
 */
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';

/**
 * `<think>…</think>` + one python call, then an answer: the output-item and code
 * interpreter events, in order (see {@link codeInterpreterEventTypes}).
 */
export const THINK_PYTHON_ANSWER_EVENTS = [
  'response.output_item.added', // reasoning
  'response.output_item.done',
  'response.output_item.added', // code_interpreter_call
  'response.code_interpreter_call.in_progress',
  'response.code_interpreter_call_code.delta',
  'response.code_interpreter_call_code.done',
  'response.code_interpreter_call.interpreting',
  'response.code_interpreter_call.completed',
  'response.output_item.done',
  'response.output_item.added', // the answer
  'response.output_item.done',
] as const;

/** The events of a stream that {@link THINK_PYTHON_ANSWER_EVENTS} lists: output items and code interpreter ones. */
export function codeInterpreterEventTypes(events: ResponseStreamEvent[]): string[] {
  return events.map((e) => e.type).filter((t) => t.includes('code_interpreter') || t.startsWith('response.output_item'));
}

/** The events of one web_search_call, in order. */
export const WEB_SEARCH_CALL_EVENTS = [
  'response.web_search_call.in_progress',
  'response.web_search_call.searching',
  'response.web_search_call.completed',
] as const;

/** The web_search_call events of a stream. */
export function webSearchEventTypes(events: ResponseStreamEvent[]): string[] {
  return events.map((e) => e.type).filter((t) => t.startsWith('response.web_search_call'));
}
