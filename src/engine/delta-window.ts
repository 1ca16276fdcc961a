/**
 * The `deltaWindowMs` of the real engines: one text event per 16 ms at most (a 60 Hz frame,
 * so nothing a reader can see). Small models decode ~1,000 tokens/s on a desktop CPU with
 * wllama, faster than one event per token travels to the page on a 2-core machine: with
 * this window the API keeps ≥ 0.95 of wllama's own speed (`npm run bench:wasm`; 8 ms
 * measured 0.88). A real chat model's tokens (20–50 ms apart) are never held.
 */
export const REAL_ENGINE_DELTA_WINDOW_MS = 16;
