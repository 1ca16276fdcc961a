/**
 * Polls `GET /v1/models` until it answers 200. 503 (no runtime yet: leader starting or
 * handing over) is retried; any other failure status is final and reported.
 */
export async function waitUntilAnswering(fetchFn: typeof fetch, { timeoutMs }: { timeoutMs: number }): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  while (performance.now() < deadline) {
    const response = await fetchFn(new URL('/v1/models', location.origin)).catch((error: unknown) => {
      last = String(error);
      return undefined;
    });
    if (response?.ok) return;
    if (response) {
      last = `${response.status} ${await response.text()}`;
      if (response.status !== 503) break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`The local runtime did not start: ${last}`);
}
