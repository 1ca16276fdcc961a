import { expect, test } from 'vitest';
import { httpError, isContextOverflow, parseUpstreamError, redact, retryAfterSeconds } from './upstream-errors';

const provider = { id: 'lab', baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'sk-live-123456', keyStorage: 'persistent' as const, appOrigin: 'https://app.example' };

test('error bodies: OpenAI’s nested shape, SGLang’s top-level one, plain text', () => {
  expect(parseUpstreamError('{"error":{"message":"m","type":"t","code":"c","param":"p"}}')).toEqual({ message: 'm', type: 't', code: 'c', param: 'p' });
  expect(parseUpstreamError('{"object":"error","message":"bad","type":"BadRequestError","code":400}')).toEqual({ message: 'bad', type: 'BadRequestError', code: 400 });
  expect(parseUpstreamError('<html>oops</html>')).toEqual({ message: '<html>oops</html>' });
  expect(parseUpstreamError('', 'Bad Gateway')).toEqual({ message: 'Bad Gateway' });
});

test('context overflow in OpenAI’s, llama.cpp’s and vLLM’s words', () => {
  expect(isContextOverflow({ message: 'x', code: 'context_length_exceeded' }, 400)).toBe(true);
  expect(isContextOverflow({ message: 'x', type: 'exceed_context_size_error' }, 400)).toBe(true);
  expect(isContextOverflow({ message: "This model's maximum context length is 4096 tokens. However, your request has 5000 input tokens." }, 400)).toBe(true);
  expect(isContextOverflow({ message: 'The input (9000 tokens) is longer than the model\'s context length (8192 tokens).' }, 400)).toBe(true);
  expect(isContextOverflow({ message: 'temperature must be at most 2' }, 400)).toBe(false);
});

test('retry-after in milliseconds, seconds or as a date', () => {
  expect(retryAfterSeconds(new Headers({ 'retry-after-ms': '1500' }))).toBe(2);
  expect(retryAfterSeconds(new Headers({ 'retry-after': '20' }))).toBe(20);
  expect(retryAfterSeconds(new Headers({ 'retry-after': new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString() }), Date.UTC(2030, 0, 1))).toBe(30);
  expect(retryAfterSeconds(new Headers())).toBeNull();
});

test('the key never shows, nor any bearer token; long messages are cut', () => {
  expect(redact('bad key sk-live-123456 (Bearer abc.def)', provider.apiKey)).toBe('bad key [redacted] (Bearer [redacted]');
  expect(redact('x'.repeat(5000), undefined)).toHaveLength(1001);
  const error = httpError(provider, 403, { message: 'key sk-live-123456 has no access to this model.' }, new Headers());
  expect(error.data).toMatchObject({ status: 403, code: 'provider_auth_failed' });
  expect(error.message).toBe("Provider 'lab' refused the request (403): key [redacted] has no access to this model. Check its API key in Settings → Providers.");
});

test('a 404 names the model when one was asked for, else the address', () => {
  expect(httpError(provider, 404, { message: 'The model `big` does not exist.' }, new Headers(), 'big').data).toMatchObject({ code: 'model_not_found', param: 'model' });
  expect(httpError(provider, 404, { message: 'Not Found' }, new Headers()).message).toMatch(/Check its address \(it usually ends in \/v1\)/);
  expect(httpError(provider, 503, { message: 'Loading model' }, new Headers()).data).toMatchObject({ status: 502, type: 'server_error', code: 'provider_error', message: "Provider 'lab' answered 503: Loading model" });
});
