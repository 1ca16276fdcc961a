import { describe, expect, test } from 'vitest';
import { toolsConfigWithMcpServers, toolsConfigWithProvider } from './runtime-tools-config';

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

describe('toolsConfigWithMcpServers', () => {
  const server = { label: 'local', url: 'http://localhost:3000/mcp', allowedTools: [], requireApproval: 'always' as const };
  test('each added server’s host (with port) is allowed, and only it', () => {
    expect(toolsConfigWithMcpServers({}, [server])).toEqual({ mcp: { allowHosts: ['localhost:3000'] } });
    expect(toolsConfigWithMcpServers({ mcp: { allowHosts: ['a:1'] } }, [server])).toEqual({ mcp: { allowHosts: ['a:1', 'localhost:3000'] } });
  });
  test('no servers, a turned-off client or a bad URL change nothing', () => {
    expect(toolsConfigWithMcpServers({}, [])).toEqual({});
    expect(toolsConfigWithMcpServers({ mcp: false }, [server])).toEqual({ mcp: false });
    expect(toolsConfigWithMcpServers({}, [{ ...server, url: 'nope' }])).toEqual({ mcp: { allowHosts: [] } });
  });
});
