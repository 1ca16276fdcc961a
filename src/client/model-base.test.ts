import { expect, it } from 'vitest';
import { resolveModelBase } from './model-base';

const page = 'http://127.0.0.1:4173/?test-models&model-base=/mirror/';

it('option, then ?model-base= (test models only), then the stored setting; made absolute', () => {
  expect(resolveModelBase({ option: 'https://cdn.example/m/', testModels: true, pageUrl: page, stored: '/stored/' })).toBe('https://cdn.example/m/');
  expect(resolveModelBase({ testModels: true, pageUrl: page, stored: '/stored/' })).toBe('http://127.0.0.1:4173/mirror/');
  // An ordinary link cannot redirect model downloads.
  expect(resolveModelBase({ testModels: false, pageUrl: page, stored: '/stored/' })).toBe('http://127.0.0.1:4173/stored/');
  expect(resolveModelBase({ testModels: false, pageUrl: page, stored: null })).toBeUndefined();
  expect(resolveModelBase({ option: '  ', testModels: false, pageUrl: 'http://x/app/', stored: 'models' })).toBe('http://x/app/models');
});
