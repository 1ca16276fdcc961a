/**
 * A streamed answer whose stream ended while its response still runs (the service worker
 * restarted, the leader tab changed, the page reloaded): read where the response stands,
 * and resume its stream from the last event seen
 * (`GET /v1/responses/{id}?stream=true&starting_after=N`), a few times, until it has ended.
 */
import type { Response as OpenAIResponse, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { APIError } from 'openai';
import type { Api } from './api';
import { isRunning, type Turn } from './saved-chat';

/** What the tool cards show of a resumed turn: the interpreter's output and a search's sources. */
const SHOWN: Array<'code_interpreter_call.outputs' | 'web_search_call.action.sources'> = ['code_interpreter_call.outputs', 'web_search_call.action.sources'];

/** Resume attempts after the stream dropped while the response was still running. */
const MAX_RESUMES = 5;

export interface ResumeHandlers {
  /** The turn as it stands now (its response id, status and last sequence number seen). */
  turn(): Turn | undefined;
  /** The response as retrieved. */
  onResponse(response: OpenAIResponse): void;
  /** Reads a resumed stream to its end. */
  consume(stream: AsyncIterable<ResponseStreamEvent>): Promise<void>;
  /** The stored response is gone (404). */
  onGone(): void;
  /** Stop: the person stopped the answer, or left. */
  signal: AbortSignal;
}

export async function resumeUntilSettled(api: Api, handlers: ResumeHandlers): Promise<void> {
  const { signal } = handlers;
  for (let attempt = 0; attempt <= MAX_RESUMES; attempt++) {
    const turn = handlers.turn();
    if (!turn?.responseId || !isRunning(turn)) return;
    try {
      handlers.onResponse(await api.client.responses.retrieve(turn.responseId, { include: SHOWN }));
      // Stopped: the cancel already landed (or the answer had finished); nothing to resume.
      const now = handlers.turn();
      if (!now || !isRunning(now) || signal.aborted) return;
      const resumed = await api.client.responses.retrieve(turn.responseId, { stream: true, starting_after: now.lastSequence, include: SHOWN }, { signal });
      await handlers.consume(resumed);
    } catch (error) {
      if (error instanceof APIError && error.status === 404) return handlers.onGone();
      if (!signal.aborted) await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
    }
  }
}
