import { describe, expect, test } from 'vitest';
import { SANDBOX_BOOTSTRAP } from './sandbox-bootstrap';
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

  test("one inline script, the bootstrap whose hash the app's policy allows", () => {
    const html = sandboxFrameHtml();
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.endsWith(`<script>${SANDBOX_BOOTSTRAP}</script>`)).toBe(true);
  });
});
