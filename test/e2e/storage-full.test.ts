/**
 * Issue 12 finding 2 in a real Chromium: with the origin's quota used up (CDP
 * `Storage.overrideQuotaForOrigin`, which Chromium applies only after it drops its cached
 * quota, ~30 s), a create is refused with storage_full through the service worker, a
 * `store: false` request still answers, and a reload still starts the runtime, whose stored
 * responses can still be read.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openApp, startE2E, waitForRuntime } from '../support/browser';

let e2e: Awaited<ReturnType<typeof startE2E>>;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e?.close());

test('storage full: clear 507 storage_full, store:false works, the runtime starts again and reads work', { timeout: 150_000 }, async () => {
  const context = await e2e.browser.newContext();
  const page = await openApp(context, e2e.app.origin);
  const kept = await page.evaluate(() => window.sdk!.responses.create({ model: 'test-scripted', input: 'kept before the disk filled' }));
  const cdp = await context.newCDPSession(page);
  const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: e2e.app.origin, quotaSize: usage });

  // Chromium notices the new quota once its cached figure expires: retry until writes fail.
  const refused = await page.evaluate(async () => {
    const deadline = Date.now() + 100_000;
    // Under the model's 32k-token window (4 characters a token), big enough to need space.
    let filler = 'x'.repeat(60_000);
    while (Date.now() < deadline) {
      try {
        await window.sdk!.responses.create({ model: 'test-scripted', input: filler });
      } catch (err) {
        const e = err as { status?: number; code?: string; message?: string };
        return { status: e.status, code: e.code, message: e.message };
      }
      filler += 'y';
      await new Promise((r) => setTimeout(r, 1000));
    }
    return null;
  });
  expect(refused).not.toBeNull();
  expect(refused!.status).toBe(507);
  expect(refused!.code).toBe('storage_full');
  expect(refused!.message).toMatch(/storage for the app is full/);

  // An upload is refused the same way (its bytes go to IndexedDB as a Blob).
  const upload = await page.evaluate(() =>
    window.sdk!.files.create({ file: new File([new Uint8Array(2_000_000)], 'big.bin'), purpose: 'user_data' }).then(
      () => null,
      (e: { status?: number; code?: string }) => ({ status: e.status, code: e.code }),
    ),
  );
  expect(upload).toEqual({ status: 507, code: 'storage_full' });

  const unstored = await page.evaluate(() => window.sdk!.responses.create({ model: 'test-scripted', input: 'no storage needed', store: false }));
  expect(unstored.output_text).toBe('You said: no storage needed');

  await page.reload();
  await waitForRuntime(page);
  const reread = await page.evaluate((id) => window.sdk!.responses.retrieve(id), kept.id);
  expect(reread.output_text).toBe('You said: kept before the disk filled');
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: e2e.app.origin });
  await context.close();
});
