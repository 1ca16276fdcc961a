import { expect, test } from 'vitest';
import { installAdvice } from './install-advice';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:153.0) Gecko/153.0 Firefox/153.0';
const SAFARI_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

const env = (userAgent: string, more: { promptSupported?: boolean; standalone?: boolean } = {}) => ({ promptSupported: false, standalone: false, userAgent, ...more });

test('Firefox on a computer: no install there, the app works in the tab, and where it installs', () => {
  const advice = installAdvice(env(FIREFOX_LINUX))!;
  expect(advice).toMatch(/^Firefox does not install web apps on a computer\./);
  expect(advice).toContain('bookmark it');
  expect(advice).toContain('Chrome or Edge');
});

test('the browsers that install from a menu are told where', () => {
  expect(installAdvice(env(FIREFOX_ANDROID))).toContain('Add app to Home screen');
  expect(installAdvice(env(SAFARI_MAC))).toContain('Add to Dock');
  expect(installAdvice(env(IPHONE))).toContain('Add to Home Screen');
});

test('nothing where the browser has its own prompt (the Install button), or once installed', () => {
  expect(installAdvice(env(CHROME, { promptSupported: true }))).toBeNull();
  expect(installAdvice(env(FIREFOX_LINUX, { standalone: true }))).toBeNull();
});
