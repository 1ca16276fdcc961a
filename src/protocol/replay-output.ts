/**
 * A response's output rebuilt from its event log: what a client that read the stream up to
 * the last logged event had seen. Used when a runtime stopped mid-response (the leader tab
 * closed): the stored snapshot may be older than the log, which is flushed while the model
 * generates, so the log is the better record of the partial output.
 *
 * Pure: events in, items out. Items the log finished (`response.output_item.done`) are as
 * they were sent; items still open are rebuilt from their deltas and marked `incomplete`.
 */
import type { OutputItem } from './output-items';
import type { StreamEvent } from './stream-events';

export function replayOutput(events: readonly StreamEvent[]): OutputItem[] {
  const items: OutputItem[] = [];
  const done = new Set<number>();
  for (const event of events) {
    switch (event.type) {
      case 'response.output_item.added':
        items[event.output_index] = structuredClone(event.item);
        break;
      case 'response.output_item.done':
        items[event.output_index] = structuredClone(event.item);
        done.add(event.output_index);
        break;
      default:
        applyDelta(items, event);
    }
  }
  return items.flatMap((item, index) => (item === undefined ? [] : [done.has(index) ? item : markIncomplete(item)]));
}

function applyDelta(items: OutputItem[], event: StreamEvent): void {
  if (!('output_index' in event)) return;
  const item = items[event.output_index];
  if (!item) return;
  switch (event.type) {
    case 'response.content_part.added':
      if (item.type === 'message' && event.part.type === 'output_text') item.content[event.content_index] = structuredClone(event.part);
      if (item.type === 'reasoning' && event.part.type === 'reasoning_text') item.content[event.content_index] = structuredClone(event.part);
      break;
    case 'response.output_text.delta': {
      const part = item.type === 'message' ? item.content[event.content_index] : undefined;
      if (part?.type === 'output_text') part.text += event.delta;
      break;
    }
    case 'response.reasoning_text.delta': {
      const part = item.type === 'reasoning' ? item.content[event.content_index] : undefined;
      if (part) part.text += event.delta;
      break;
    }
    case 'response.reasoning_summary_part.added':
      if (item.type === 'reasoning') item.summary[event.summary_index] = structuredClone(event.part);
      break;
    case 'response.reasoning_summary_text.delta': {
      const part = item.type === 'reasoning' ? item.summary[event.summary_index] : undefined;
      if (part) part.text += event.delta;
      break;
    }
    case 'response.reasoning_summary_text.done': {
      const part = item.type === 'reasoning' ? item.summary[event.summary_index] : undefined;
      if (part) part.text = event.text;
      break;
    }
    case 'response.function_call_arguments.delta':
      if (item.type === 'function_call') item.arguments += event.delta;
      break;
    case 'response.code_interpreter_call_code.delta':
      if (item.type === 'code_interpreter_call') item.code = (item.code ?? '') + event.delta;
      break;
    case 'response.output_text.done': {
      const part = item.type === 'message' ? item.content[event.content_index] : undefined;
      if (part?.type === 'output_text') part.text = event.text;
      break;
    }
    case 'response.reasoning_text.done': {
      const part = item.type === 'reasoning' ? item.content[event.content_index] : undefined;
      if (part) part.text = event.text;
      break;
    }
    case 'response.function_call_arguments.done':
      if (item.type === 'function_call') item.arguments = event.arguments;
      break;
    case 'response.code_interpreter_call_code.done':
      if (item.type === 'code_interpreter_call') item.code = event.code;
      break;
    default:
      break;
  }
}

function markIncomplete(item: OutputItem): OutputItem {
  return { ...item, status: 'incomplete' } as OutputItem;
}
