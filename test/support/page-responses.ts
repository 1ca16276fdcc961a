/**
 * `responses.create` of the `openai` SDK the app's page exposes (`window.sdk`), on the scripted
 * model: what an e2e test of a builtin tool sends, not streamed or streamed to its end.
 */
import type { Page } from 'playwright-core';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';

/** The request body beside `model` (the scripted model unless it names another). */
export type PageBody = Record<string, unknown>;

/** `page` is read at each call: a test opens it in `beforeAll`. */
export function pageResponses(page: () => Page) {
  return {
    create: (body: PageBody) => page().evaluate((b) => window.sdk!.responses.create({ model: 'test-scripted', ...b } as never) as Promise<Response>, body),
    stream: (body: PageBody) =>
      page().evaluate(async (b) => {
        const events: unknown[] = [];
        const s = await window.sdk!.responses.create({ model: 'test-scripted', ...b, stream: true } as never);
        for await (const e of s as unknown as AsyncIterable<unknown>) events.push(e);
        return events;
      }, body) as Promise<ResponseStreamEvent[]>,
  };
}
