/**
 * `openai-poll-after-ms`: how long a client should wait before asking again about an object
 * still `in_progress`. The SDK's `*AndPoll` helpers sleep what it says (otherwise 5 s a poll).
 */
export function withPollAfter(body: { status: string }, pollAfterMs: number, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (body.status === 'in_progress') headers.set('openai-poll-after-ms', String(pollAfterMs));
  return Response.json(body, { ...init, headers });
}
