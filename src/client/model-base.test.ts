import { expect, it } from 'vitest';
import { resolveModelBase } from './model-base';

it('the option, then the stored setting, made absolute; never the page URL', () => {
  const page = 'http://127.0.0.1:4173/?test-models&model-base=https://evil.example/';
  expect(resolveModelBase({ option: 'https://cdn.example/m/', pageUrl: page, stored: '/stored/' })).toBe('https://cdn.example/m/');
  expect(resolveModelBase({ pageUrl: page, stored: '/stored/' })).toBe('http://127.0.0.1:4173/stored/');
  // A link cannot choose where model libraries (code) come from, test models or not.
  expect(resolveModelBase({ pageUrl: page, stored: null })).toBeUndefined();
  expect(resolveModelBase({ option: '  ', pageUrl: 'http://x/app/', stored: 'models' })).toBe('http://x/app/models');
});
