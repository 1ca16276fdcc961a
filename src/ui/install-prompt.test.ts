import { expect, test, vi } from 'vitest';
import { InstallPromptStore } from './install-prompt';

function promptEvent(outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true });
  const prompt = vi.fn(async () => {});
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome }) });
  return { event, prompt };
}

test('offers installation only once the browser does, shows its dialog once, and hides the offer after', async () => {
  const target = new EventTarget();
  const store = new InstallPromptStore(target);
  expect(store.get().available).toBe(false);
  expect(await store.install()).toBe('unavailable');

  const { event, prompt } = promptEvent('accepted');
  target.dispatchEvent(event);
  expect(event.defaultPrevented).toBe(true);
  expect(store.get().available).toBe(true);
  expect(await store.install()).toBe('accepted');
  expect(prompt).toHaveBeenCalledOnce();
  expect(store.get().available).toBe(false);
});

test('an install from the browser menu removes the offer', () => {
  const target = new EventTarget();
  const store = new InstallPromptStore(target);
  target.dispatchEvent(promptEvent('dismissed').event);
  target.dispatchEvent(new Event('appinstalled'));
  expect(store.get().available).toBe(false);
});
