/**
 * `background_options` (openai 7.59 `ResponseCreateParams.BackgroundOptions`), accepted as the
 * SDK types it. What each option means here:
 * - `completion_window`: `soonest` is what every background response here does (it starts
 *   at once on its engine's queue). `2h` and `8h` select OpenAI's discounted, deferred
 *   processing; there is no price here to discount, so they run at once too — earlier than
 *   asked, never later. As on OpenAI they need `background: true` and no `stream`.
 * - `continuation_id`: an opaque key OpenAI uses to prioritise related background requests;
 *   one engine queue serves requests in arrival order here, so it is accepted and ignored
 *   (it never adds history to the input, on OpenAI either).
 */
import { z } from 'zod';
import { invalidRequest } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

export const BackgroundOptions = z.strictObject({
  completion_window: z.enum(['soonest', '2h', '8h']).optional(),
  continuation_id: z.string().min(1).max(512).optional(),
});
export type BackgroundOptions = z.infer<typeof BackgroundOptions>;

/**
 * The deferred windows' own rule, as OpenAI states it: `2h` and `8h` only with
 * `background: true` and without `stream`. A 400 naming the option otherwise.
 */
export function checkBackgroundOptions(request: { background?: boolean | null; stream?: boolean | null; background_options?: BackgroundOptions | null }): void {
  const window = request.background_options?.completion_window;
  if (window !== '2h' && window !== '8h') return;
  if (request.background !== true || request.stream === true)
    throw invalidRequest(
      `background_options.completion_window '${window}' requires background: true and stream false or omitted (as on OpenAI). Use 'soonest', or send the request in the background without streaming.`,
      'background_options.completion_window',
      Codes.invalidValue,
    );
}
