import { expect, test } from 'vitest';
import { toolsConfigWithProvider } from './runtime-tools-config';

test('no provider set: the base config as is', () => {
  expect(toolsConfigWithProvider({ python: { timeLimitMs: 5 } }, '')).toEqual({ python: { timeLimitMs: 5 } });
});

test('a SearXNG address becomes the provider and its host is allowed', () => {
  expect(toolsConfigWithProvider({ webSearch: { allowPrivateNetwork: false, allowHosts: ['a:1'] } }, 'http://localhost:8888/')).toEqual({
    webSearch: { allowPrivateNetwork: false, provider: { type: 'searxng', baseUrl: 'http://localhost:8888' }, allowHosts: ['a:1', 'localhost:8888'] },
  });
});

test('web search turned off or an invalid URL leave the base untouched', () => {
  expect(toolsConfigWithProvider({ webSearch: false }, 'https://searx.example')).toEqual({ webSearch: false });
  expect(toolsConfigWithProvider({}, 'not a url')).toEqual({});
});
