/**
 * Applies Responses stream events to a turn, as an immutable update (React state and the
 * IndexedDB copy are both snapshots). Mirrors `response.output` item by item: added →
 * deltas → done, and the terminal event's response replaces everything.
 */
import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { Turn, TurnStatus } from './saved-chat';

type Item = ResponseOutputItem;

function patchItem(turn: Turn, index: number, patch: (item: Item) => Item): Turn {
  const item = turn.output[index];
  if (!item) return turn;
  const output = turn.output.slice();
  output[index] = patch(item);
  return { ...turn, output };
}

function withFirstToken(turn: Turn, now: number): Turn {
  return turn.firstTokenAt === null ? { ...turn, firstTokenAt: now } : turn;
}

/**
 * Why an incomplete answer stopped, in the app's terms. The Responses API has no reason of
 * its own for a full context window: it says `max_output_tokens` for any stop at a token
 * limit (ours does, as OpenAI's). It was the output limit only when the request set one and
 * the answer reached it; otherwise the context window filled up (`context_window`).
 */
export function incompleteReasonOf(response: Response): string | null {
  const reason = response.incomplete_details?.reason ?? null;
  if (reason !== 'max_output_tokens') return reason;
  const limit = response.max_output_tokens ?? null;
  const used = response.usage?.output_tokens;
  if (limit === null || (used !== undefined && used < limit)) return 'context_window';
  return reason;
}

/**
 * Takes the server's response object as the truth once it is terminal. While it runs, only
 * the status is taken: the output so far stays the one built from events, which matches
 * `lastSequence` (a resumed stream continues from there).
 */
export function applyResponse(turn: Turn, response: Response, now: number): Turn {
  const status = response.status as TurnStatus;
  const terminal = status !== 'queued' && status !== 'in_progress';
  return {
    ...turn,
    responseId: response.id,
    servedBy: response.model,
    status,
    output: terminal ? response.output : turn.output,
    usage: response.usage ?? turn.usage,
    error: response.error?.message ?? turn.error,
    incompleteReason: incompleteReasonOf(response),
    finishedAt: terminal ? (turn.finishedAt ?? now) : null,
  };
}

export function applyStreamEvent(turn: Turn, event: ResponseStreamEvent, now: number): Turn {
  const next = reduce(turn, event, now);
  return 'sequence_number' in event ? { ...next, lastSequence: event.sequence_number } : next;
}

function reduce(turn: Turn, event: ResponseStreamEvent, now: number): Turn {
  switch (event.type) {
    case 'response.created':
    case 'response.queued':
    case 'response.in_progress':
      return { ...turn, responseId: event.response.id, servedBy: event.response.model, status: event.response.status as TurnStatus };
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      return applyResponse(turn, event.response, now);
    case 'response.output_item.added':
    case 'response.output_item.done': {
      const output = turn.output.slice();
      output[event.output_index] = event.item;
      return { ...turn, output };
    }
    case 'response.content_part.added':
      return patchItem(turn, event.output_index, (item) => {
        if (item.type === 'message' && (event.part.type === 'output_text' || event.part.type === 'refusal')) {
          const content = item.content.slice();
          content[event.content_index] = event.part;
          return { ...item, content };
        }
        if (item.type === 'reasoning' && event.part.type === 'reasoning_text') {
          const content = (item.content ?? []).slice();
          content[event.content_index] = event.part;
          return { ...item, content };
        }
        return item;
      });
    case 'response.output_text.delta':
      return withFirstToken(
        patchItem(turn, event.output_index, (item) => {
          if (item.type !== 'message') return item;
          const content = item.content.slice();
          const part = content[event.content_index];
          content[event.content_index] =
            part?.type === 'output_text' ? { ...part, text: part.text + event.delta } : { type: 'output_text', text: event.delta, annotations: [] };
          return { ...item, content };
        }),
        now,
      );
    case 'response.output_text.annotation.added':
      return patchItem(turn, event.output_index, (item) => {
        if (item.type !== 'message') return item;
        const content = item.content.slice();
        const part = content[event.content_index];
        if (part?.type !== 'output_text') return item;
        content[event.content_index] = { ...part, annotations: [...part.annotations, event.annotation as (typeof part.annotations)[number]] };
        return { ...item, content };
      });
    case 'response.reasoning_text.delta':
      return withFirstToken(
        patchItem(turn, event.output_index, (item) => {
          if (item.type !== 'reasoning') return item;
          const content = (item.content ?? []).slice();
          const part = content[event.content_index];
          content[event.content_index] = { type: 'reasoning_text', text: (part?.text ?? '') + event.delta };
          return { ...item, content };
        }),
        now,
      );
    case 'response.function_call_arguments.delta':
      return withFirstToken(
        patchItem(turn, event.output_index, (item) => (item.type === 'function_call' ? { ...item, arguments: item.arguments + event.delta } : item)),
        now,
      );
    case 'response.code_interpreter_call_code.delta':
      return withFirstToken(
        patchItem(turn, event.output_index, (item) => (item.type === 'code_interpreter_call' ? { ...item, code: (item.code ?? '') + event.delta } : item)),
        now,
      );
    case 'response.code_interpreter_call_code.done':
      return patchItem(turn, event.output_index, (item) => (item.type === 'code_interpreter_call' ? { ...item, code: event.code } : item));
    case 'response.code_interpreter_call.in_progress':
    case 'response.code_interpreter_call.interpreting':
    case 'response.code_interpreter_call.completed': {
      const status = event.type.slice('response.code_interpreter_call.'.length) as 'in_progress' | 'interpreting' | 'completed';
      return patchItem(turn, event.output_index, (item) => (item.type === 'code_interpreter_call' ? { ...item, status } : item));
    }
    case 'response.web_search_call.in_progress':
    case 'response.web_search_call.searching':
    case 'response.web_search_call.completed': {
      const status = event.type.slice('response.web_search_call.'.length) as 'in_progress' | 'searching' | 'completed';
      return patchItem(turn, event.output_index, (item) => (item.type === 'web_search_call' ? { ...item, status } : item));
    }
    case 'response.mcp_call_arguments.delta':
      return patchItem(turn, event.output_index, (item) => (item.type === 'mcp_call' ? { ...item, arguments: item.arguments + event.delta } : item));
    case 'response.mcp_call_arguments.done':
      return patchItem(turn, event.output_index, (item) => (item.type === 'mcp_call' ? { ...item, arguments: event.arguments } : item));
    case 'response.mcp_call.in_progress':
    case 'response.mcp_call.completed':
    case 'response.mcp_call.failed': {
      const status = event.type.slice('response.mcp_call.'.length) as 'in_progress' | 'completed' | 'failed';
      return patchItem(turn, event.output_index, (item) => (item.type === 'mcp_call' ? { ...item, status } : item));
    }
    case 'error':
      return { ...turn, status: 'failed', error: event.message, finishedAt: now };
    default:
      return turn;
  }
}
