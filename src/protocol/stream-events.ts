/**
 * Every stream event the server emits. `sequence_number` starts at 0 and increases by one
 * per event of a response; the SSE `event:` line always equals `type`.
 */
import { z } from 'zod';
import { Annotation, FunctionCall, Logprob, OutputItem, OutputText, ReasoningText } from './output-items';
import { ResponseObject } from './response-object';

const seq = { sequence_number: z.number().int().min(0) };
const at = { item_id: z.string(), output_index: z.number().int() };
const part = { ...at, content_index: z.number().int() };
/** Random padding on delta events when `stream_options.include_obfuscation` is true. */
const obfuscation = { obfuscation: z.string().optional() };

const lifecycle = <T extends string>(type: T) => z.object({ type: z.literal(type), ...seq, response: ResponseObject });

export const ResponseCreated = lifecycle('response.created');
export const ResponseQueued = lifecycle('response.queued');
export const ResponseInProgress = lifecycle('response.in_progress');
export const ResponseCompleted = lifecycle('response.completed');
export const ResponseIncomplete = lifecycle('response.incomplete');
export const ResponseFailed = lifecycle('response.failed');

export const OutputItemAdded = z.object({ type: z.literal('response.output_item.added'), ...seq, output_index: z.number().int(), item: OutputItem });
export const OutputItemDone = z.object({ type: z.literal('response.output_item.done'), ...seq, output_index: z.number().int(), item: OutputItem });

const ContentPart = z.union([OutputText, ReasoningText]);
export const ContentPartAdded = z.object({ type: z.literal('response.content_part.added'), ...seq, ...part, part: ContentPart });
export const ContentPartDone = z.object({ type: z.literal('response.content_part.done'), ...seq, ...part, part: ContentPart });

export const OutputTextDelta = z.object({ type: z.literal('response.output_text.delta'), ...seq, ...part, delta: z.string(), logprobs: z.array(Logprob), ...obfuscation });
export const OutputTextDone = z.object({ type: z.literal('response.output_text.done'), ...seq, ...part, text: z.string(), logprobs: z.array(Logprob) });
export const OutputTextAnnotationAdded = z.object({
  type: z.literal('response.output_text.annotation.added'),
  ...seq,
  ...part,
  annotation_index: z.number().int(),
  annotation: Annotation,
});

export const ReasoningTextDelta = z.object({ type: z.literal('response.reasoning_text.delta'), ...seq, ...part, delta: z.string(), ...obfuscation });
export const ReasoningTextDone = z.object({ type: z.literal('response.reasoning_text.done'), ...seq, ...part, text: z.string() });

/** Summary parts of a reasoning item, addressed by `summary_index` (OpenAI's names and order). */
const summary = { ...at, summary_index: z.number().int() };
const SummaryText = z.object({ type: z.literal('summary_text'), text: z.string() });
export const ReasoningSummaryPartAdded = z.object({ type: z.literal('response.reasoning_summary_part.added'), ...seq, ...summary, part: SummaryText });
export const ReasoningSummaryPartDone = z.object({ type: z.literal('response.reasoning_summary_part.done'), ...seq, ...summary, part: SummaryText });
export const ReasoningSummaryTextDelta = z.object({ type: z.literal('response.reasoning_summary_text.delta'), ...seq, ...summary, delta: z.string(), ...obfuscation });
export const ReasoningSummaryTextDone = z.object({ type: z.literal('response.reasoning_summary_text.done'), ...seq, ...summary, text: z.string() });

export const FunctionCallArgumentsDelta = z.object({ type: z.literal('response.function_call_arguments.delta'), ...seq, ...at, delta: z.string(), ...obfuscation });
export const FunctionCallArgumentsDone = z.object({
  type: z.literal('response.function_call_arguments.done'),
  ...seq,
  ...at,
  name: FunctionCall.shape.name,
  arguments: z.string(),
});

const itemEvent = <T extends string>(type: T) => z.object({ type: z.literal(type), ...seq, ...at });
export const CodeInterpreterInProgress = itemEvent('response.code_interpreter_call.in_progress');
export const CodeInterpreterInterpreting = itemEvent('response.code_interpreter_call.interpreting');
export const CodeInterpreterCompleted = itemEvent('response.code_interpreter_call.completed');
export const CodeInterpreterCodeDelta = z.object({ type: z.literal('response.code_interpreter_call_code.delta'), ...seq, ...at, delta: z.string(), ...obfuscation });
export const CodeInterpreterCodeDone = z.object({ type: z.literal('response.code_interpreter_call_code.done'), ...seq, ...at, code: z.string() });
export const WebSearchInProgress = itemEvent('response.web_search_call.in_progress');
export const WebSearchSearching = itemEvent('response.web_search_call.searching');
export const WebSearchCompleted = itemEvent('response.web_search_call.completed');
export const FileSearchInProgress = itemEvent('response.file_search_call.in_progress');
export const FileSearchSearching = itemEvent('response.file_search_call.searching');
export const FileSearchCompleted = itemEvent('response.file_search_call.completed');
export const McpListToolsInProgress = itemEvent('response.mcp_list_tools.in_progress');
export const McpListToolsCompleted = itemEvent('response.mcp_list_tools.completed');
export const McpListToolsFailed = itemEvent('response.mcp_list_tools.failed');
export const McpCallInProgress = itemEvent('response.mcp_call.in_progress');
export const McpCallCompleted = itemEvent('response.mcp_call.completed');
export const McpCallFailed = itemEvent('response.mcp_call.failed');
export const McpCallArgumentsDelta = z.object({ type: z.literal('response.mcp_call_arguments.delta'), ...seq, ...at, delta: z.string() });
export const McpCallArgumentsDone = z.object({ type: z.literal('response.mcp_call_arguments.done'), ...seq, ...at, arguments: z.string() });

/** A custom tool call's free-form input, streamed (OpenAI's `ResponseCustomToolCallInputDeltaEvent`/`…DoneEvent`). */
export const CustomToolCallInputDelta = z.object({ type: z.literal('response.custom_tool_call_input.delta'), ...seq, ...at, delta: z.string(), ...obfuscation });
export const CustomToolCallInputDone = z.object({ type: z.literal('response.custom_tool_call_input.done'), ...seq, ...at, input: z.string() });

/** Carries OpenAI's top-level fields and the Open Responses `error` payload together. */
export const ErrorEvent = z.object({
  type: z.literal('error'),
  ...seq,
  code: z.string().nullable(),
  message: z.string(),
  param: z.string().nullable(),
  error: z.object({ type: z.string(), code: z.string().nullable(), message: z.string(), param: z.string().nullable() }),
});

export const StreamEvent = z.discriminatedUnion('type', [
  ResponseCreated,
  ResponseQueued,
  ResponseInProgress,
  ResponseCompleted,
  ResponseIncomplete,
  ResponseFailed,
  OutputItemAdded,
  OutputItemDone,
  ContentPartAdded,
  ContentPartDone,
  OutputTextDelta,
  OutputTextDone,
  OutputTextAnnotationAdded,
  ReasoningTextDelta,
  ReasoningTextDone,
  ReasoningSummaryPartAdded,
  ReasoningSummaryPartDone,
  ReasoningSummaryTextDelta,
  ReasoningSummaryTextDone,
  FunctionCallArgumentsDelta,
  FunctionCallArgumentsDone,
  CodeInterpreterInProgress,
  CodeInterpreterInterpreting,
  CodeInterpreterCompleted,
  CodeInterpreterCodeDelta,
  CodeInterpreterCodeDone,
  WebSearchInProgress,
  WebSearchSearching,
  WebSearchCompleted,
  FileSearchInProgress,
  FileSearchSearching,
  FileSearchCompleted,
  McpListToolsInProgress,
  McpListToolsCompleted,
  McpListToolsFailed,
  McpCallInProgress,
  McpCallCompleted,
  McpCallFailed,
  McpCallArgumentsDelta,
  McpCallArgumentsDone,
  CustomToolCallInputDelta,
  CustomToolCallInputDone,
  ErrorEvent,
]);
export type StreamEvent = z.infer<typeof StreamEvent>;

/** An event before the log gives it its sequence number. */
export type UnsequencedEvent = StreamEvent extends infer E ? (E extends StreamEvent ? Omit<E, 'sequence_number'> : never) : never;

export const TERMINAL_EVENT_TYPES: ReadonlySet<StreamEvent['type']> = new Set([
  'response.completed',
  'response.incomplete',
  'response.failed',
]);

/**
 * How far a stream may run ahead of its stored event log: a running response never lets a
 * reader see an event more than this many sequence numbers past the last one its store has
 * taken (the live log holds readers back until the next write lands). So when the runtime
 * dies, no client can have seen a sequence number above the last logged one plus this; the
 * next runtime numbers the terminal event it appends past that, and a client resuming from
 * any number it saw gets it — and no number it saw is reused for another event.
 */
export const UNLOGGED_EVENTS_MAX = 256;

/** The sequence number of a terminal event written by someone other than the run (recovery, a replay): past anything a client can have seen. */
export function recoveredTerminalSequence(lastLogged: number): number {
  return lastLogged + UNLOGGED_EVENTS_MAX + 1;
}

export type TerminalEventType = 'response.completed' | 'response.incomplete' | 'response.failed';

/**
 * The event a stream of a response that ended with `status` ends with. The Responses API
 * has no event of its own for a cancelled response; it ends with `response.incomplete`
 * (whose response says `cancelled`), which the SDKs' stream helpers, like every client that
 * waits for completed/incomplete/failed, read as the end.
 */
export function terminalEventType(status: string): TerminalEventType | null {
  switch (status) {
    case 'completed':
      return 'response.completed';
    case 'failed':
      return 'response.failed';
    case 'incomplete':
    case 'cancelled':
      return 'response.incomplete';
    default:
      return null;
  }
}

/** The delta events that carry an `obfuscation` pad when a stream asks for it (`stream_options.include_obfuscation`), as OpenAI's do. */
export const OBFUSCATED_DELTA_EVENTS: ReadonlySet<StreamEvent['type']> = new Set([
  'response.output_text.delta',
  'response.reasoning_text.delta',
  'response.reasoning_summary_text.delta',
  'response.function_call_arguments.delta',
  'response.code_interpreter_call_code.delta',
]);
