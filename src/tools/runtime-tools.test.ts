/**
 * The tools' code is imported at a tool's first call, not when the runtime starts: the
 * modules behind each port are mocked, and counted when they are first imported.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntimeTools, onFirstUse } from './runtime-tools';

const loaded = vi.hoisted(() => ({ python: 0, webSearch: 0, mcp: 0, created: [] as string[] }));

vi.mock('./python/sandboxed-python', () => {
  loaded.python++;
  return {
    createSandboxedPython: (options: { assets: string }) => {
      loaded.created.push(`python ${options.assets}`);
      return { run: async (code: string) => ({ logs: `ran ${code}`, images: [], error: null }) };
    },
  };
});
vi.mock('./web/fetch-web-search', () => {
  loaded.webSearch++;
  return {
    createFetchWebSearch: (options: { policy: { appOrigin: string } }) => {
      loaded.created.push(`web search for ${options.policy.appOrigin}`);
      return {
        search: async (query: string) => [{ url: 'https://example.org/', title: query, snippet: '' }],
        openPage: async (url: string) => ({ url, title: 'page', text: '' }),
        findInPage: async (url: string, pattern: string) => ({ url, matches: [pattern] }),
      };
    },
  };
});
vi.mock('./mcp/mcp-client', () => {
  loaded.mcp++;
  return {
    createMcpClient: () => {
      loaded.created.push('mcp');
      return { listTools: async () => ({ ok: true, value: [] }), callTool: async () => ({ ok: true, value: { output: 'called', isError: false, content: [] } }) };
    },
  };
});

afterEach(() => {
  loaded.created.length = 0;
});

describe('createRuntimeTools', () => {
  it('imports no tool code until a tool is called, then only that tool’s, once', async () => {
    const { port1 } = new MessageChannel();
    const tools = createRuntimeTools({ python: { assets: '/pyodide/' }, pythonPort: port1, webSearch: {}, mcp: {}, programs: {} }, { origin: 'https://app.example' });
    // Programs: the port is there; no worker (nor QuickJS) starts before the first program.
    expect(Object.keys(tools).sort()).toEqual(['codeInterpreter', 'mcp', 'programs', 'webSearch']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(loaded).toMatchObject({ python: 0, webSearch: 0, mcp: 0, created: [] });

    const signal = new AbortController().signal;
    expect(await tools.webSearch!.search('cats', signal)).toEqual([{ url: 'https://example.org/', title: 'cats', snippet: '' }]);
    expect(await tools.webSearch!.openPage('https://example.org/a', signal)).toMatchObject({ url: 'https://example.org/a' });
    expect(await tools.webSearch!.findInPage('https://example.org/a', 'x', signal)).toEqual({ url: 'https://example.org/a', matches: ['x'] });
    expect(loaded).toMatchObject({ python: 0, webSearch: 1, mcp: 0, created: ['web search for https://app.example'] });

    expect(await tools.codeInterpreter!.run('print(1)', { containerId: 'c', signal })).toMatchObject({ logs: 'ran print(1)' });
    expect(await tools.mcp!.callTool({ label: 's', url: 'https://mcp.example/', headers: {} }, 't', {}, signal)).toMatchObject({ ok: true });
    expect(loaded).toMatchObject({ python: 1, webSearch: 1, mcp: 1 });
    expect(loaded.created).toEqual(['web search for https://app.example', 'python /pyodide/', 'mcp']);
    port1.close();
  });

  it('has no port for a tool that is off, or Python without its sandbox port', () => {
    expect(createRuntimeTools({ python: { assets: '/pyodide/' }, webSearch: false, mcp: false, programs: false }, { origin: 'https://app.example' })).toEqual({});
  });
});

describe('onFirstUse', () => {
  it('loads once for concurrent calls, and again after a failed load', async () => {
    let attempts = 0;
    const get = onFirstUse(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { n: attempts };
    });
    await expect(get()).rejects.toThrow('Failed to fetch');
    const [a, b] = await Promise.all([get(), get()]);
    expect(a).toBe(b);
    expect(a).toEqual({ n: 2 });
    expect(await get()).toBe(a);
    expect(attempts).toBe(2);
  });
});
