import type { BodyMode } from './wire';

/**
 * How response bodies cross threads by default: chunk messages.
 *
 * Measured in Chromium 156 (`npm run bench:pipeline`, 5,000 tokens at zero delay): chunk
 * messages deliver ~0.9–1.0× the tokens/s of the server called in-worker, transferred
 * streams only ~0.3–0.5×. A transferred stream crosses threads with high-water mark 0 on
 * the receiving side (the spec's cross-realm transform), so every chunk costs a pull
 * round trip; chunk messages are posted as fast as the server yields them. They also
 * work where streams cannot be transferred (Safari). What they lack is backpressure: for
 * token streams (small, model-paced) that is harmless. `stream` stays selectable for the
 * benchmark and for bodies where backpressure would matter.
 */
export function preferredBodyMode(): BodyMode {
  return 'chunks';
}
