import { describe, expect, test } from 'vitest';
import { sandboxFrameHtml } from './sandbox-frame-inside';

const csp = (html: string) => /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];

describe('sandboxFrameHtml', () => {
  test('no network at all by default', () => {
    expect(csp(sandboxFrameHtml())).toBe(
      "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob:; worker-src blob:; connect-src 'none'",
    );
  });

  test('a package index opens exactly its origin', () => {
    expect(csp(sandboxFrameHtml({ packageBaseUrl: 'https://cdn.example/pyodide/v314.0.7/full/' }))).toMatch(/connect-src https:\/\/cdn\.example$/);
  });

  test('one inline script, not cut short by a closing tag in its text', () => {
    const html = sandboxFrameHtml();
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<\/script>/gi)).toHaveLength(1);
    expect(html.endsWith('</script>')).toBe(true);
  });
});
