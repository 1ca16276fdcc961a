import { describe, expect, it } from 'vitest';
import { CACHE_OFFLINE_FILES_MESSAGE } from '../transport/sw-messages';
import { keepOfflineFiles } from './offline-files';

/** A service worker container whose controller records what the page posts it. */
function fakeContainer() {
  const posted: unknown[] = [];
  const container = Object.assign(new EventTarget(), { controller: { postMessage: (message: unknown) => posted.push(message) } });
  return { container: container as unknown as ServiceWorkerContainer, posted, target: container };
}

const ticks = () => new Promise((resolve) => setTimeout(resolve, 0));
const asks = (posted: unknown[]) => posted.filter((m) => (m as { type?: string }).type === CACHE_OFFLINE_FILES_MESSAGE).length;


describe('keepOfflineFiles', () => {
  it('asks the service worker for the deferred files only once `after` resolved (the first answer)', async () => {
    const { container, posted, target } = fakeContainer();
    let answer!: () => void;
    keepOfflineFiles(container, new Promise<void>((resolve) => (answer = resolve)));
    await ticks();
    // A new version taking over before the first answer does not start the fill either.
    target.dispatchEvent(new Event('controllerchange'));
    expect(asks(posted)).toBe(0);
    answer();
    await ticks();
    expect(asks(posted)).toBe(1);
    target.dispatchEvent(new Event('controllerchange'));
    expect(asks(posted)).toBe(2);
  });

  it('never asks when `after` never settles or rejects (a tab that does not run the runtime)', async () => {
    const { container, posted } = fakeContainer();
    keepOfflineFiles(container, new Promise<void>(() => {}));
    keepOfflineFiles(container, Promise.reject(new Error('no runtime')));
    await ticks();
    expect(asks(posted)).toBe(0);
  });

  it('without `after`, asks at once', async () => {
    const { container, posted } = fakeContainer();
    keepOfflineFiles(container);
    await ticks();
    expect(asks(posted)).toBe(1);
  });
});
