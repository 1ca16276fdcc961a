import { expect, test } from 'vitest';
import { describeLoadFailure, hostIn } from './load-failure';

test('a download that could not reach the source names the host and the next step; the URL goes to the details', () => {
  const message =
    'Downloading Qwen3-0.6B-q4f16_1-MLC failed (Failed to fetch). Check the network connection and that the model files are reachable, then retry; ' +
    'files already downloaded are kept. https://huggingface.co/mlc-ai/Qwen3-0.6B-q4f16_1-MLC/resolve/main/mlc-chat-config.json';
  const view = describeLoadFailure({ message, code: 'model_download_failed' }, 'Qwen3 0.6B');
  expect(view.summary).toBe('Couldn’t reach huggingface.co — check your connection, then Retry.');
  expect(view.summary).not.toContain('https://');
  expect(view.details).toBe(message);
  expect(view.retryable).toBe(true);
});

test('an HTTP refusal and a damaged file say so; a model this browser cannot run offers no Retry', () => {
  const refused = describeLoadFailure({ message: 'Downloading X failed: https://mirror.example/x/tokenizer.json answered HTTP 404. Check…', code: 'model_download_failed' }, 'X');
  expect(refused.summary).toBe('mirror.example refused a file of X (HTTP 404). Retry later, or choose another model.');
  const corrupt = describeLoadFailure({ message: 'A file of X is corrupt or not a model file (http://127.0.0.1:4173/m/lib.wasm): bad magic word.', code: 'model_download_failed' }, 'X');
  expect(corrupt.summary).toContain('127.0.0.1:4173');
  expect(corrupt.summary).toContain('damaged');
  const gpu = describeLoadFailure({ message: "This model needs the GPU (WebGPU), which this browser can't use: …", code: 'webgpu_unavailable' }, 'X');
  expect(gpu.retryable).toBe(false);
  expect(gpu.summary).toContain('needs a GPU');
});

test('without a URL the source is named generically, and an unknown failure still reads as a sentence', () => {
  expect(hostIn('no url here')).toBeNull();
  expect(describeLoadFailure({ message: 'stalled', code: 'model_download_failed' }, 'X').summary).toBe('Couldn’t reach the model source — check your connection, then Retry.');
  expect(describeLoadFailure({ message: 'boom', code: null }, 'X').summary).toBe('X couldn’t be loaded on this device. Retry, or choose another model.');
});

test('a lost connection reported under the generic load code still reads as one', () => {
  const view = describeLoadFailure({ message: 'Loading m from https://huggingface.co/x/m.gguf failed: TypeError: Failed to fetch', code: 'model_load_failed' }, 'M');
  expect(view.summary).toBe('Couldn’t reach huggingface.co — check your connection, then Retry.');
});
