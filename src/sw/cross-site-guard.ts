/**
 * `/v1` is an API for this origin's own scripts. A page on another origin can still make
 * the browser send requests here without reading the answer — a `<form method=post>`
 * (a navigation, which this origin's service worker handles), a link, `window.open` — and
 * some of ours change state (`POST /v1/responses/{id}/cancel`, `POST
 * /v1/local/models/{id}/load` starts a download). So before anything reaches the runtime:
 *
 * - navigations are refused: no script of ours navigates to `/v1`, and a navigation is
 *   what a cross-site form or link makes. `request.mode` is what the service worker can see
 *   (Chromium hides `Sec-Fetch-*` from it), the headers are checked too for an embedder
 *   whose own worker hands us requests it got from elsewhere;
 * - `Sec-Fetch-Site` other than `same-origin`, and an `Origin` other than ours, are refused.
 *
 * Subresource requests of another origin's pages never reach this worker at all: a service
 * worker only sees the requests of the clients it controls, which are this origin's.
 */
import { errorResponse } from '../protocol/error-response';
import { ApiError } from '../shared/api-error';
import { Codes } from '../shared/error-codes';

export type GuardedRequest = Pick<Request, 'mode' | 'headers'>;

/** Why `request` is refused, or `null` when it may go to the runtime. */
export function crossSiteRefusal(request: GuardedRequest, origin: string): string | null {
  const mode = request.headers.get('sec-fetch-mode');
  if (request.mode === 'navigate' || mode === 'navigate' || mode === 'nested-navigate') {
    return 'A navigation (a link, a typed address or a form) cannot call /v1; call it with fetch from a page of this origin.';
  }
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') return `A ${site} request cannot call /v1; only pages of ${origin} can.`;
  const from = request.headers.get('origin');
  if (from !== null && from !== origin) return `A request from ${from} cannot call /v1; only pages of ${origin} can.`;
  return null;
}

/** 403 in OpenAI's error shape for a refused request, or `null` when it may pass. */
export function refuseCrossSite(request: GuardedRequest, origin: string): Response | null {
  const why = crossSiteRefusal(request, origin);
  if (why === null) return null;
  return errorResponse(new ApiError({ status: 403, type: 'invalid_request_error', code: Codes.crossOriginRefused, param: null, message: why }));
}
