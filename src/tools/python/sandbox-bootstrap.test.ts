import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { SANDBOX_BOOTSTRAP, SANDBOX_BOOTSTRAP_HASH } from './sandbox-bootstrap';

test("the hash in the app's Content-Security-Policy is the bootstrap's", () => {
  expect(SANDBOX_BOOTSTRAP_HASH).toBe(`sha256-${createHash('sha256').update(SANDBOX_BOOTSTRAP, 'utf8').digest('base64')}`);
});
