import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LINGER_MS } from '../shared/request/lingering-close.ts';
import { UPLOAD_DEADLINE_MARGIN_MS, uploadWindowMs } from './upload-window.ts';

test("an upload's window ends the margin before the request timeout, with room for the linger", () => {
  assert.ok(UPLOAD_DEADLINE_MARGIN_MS > LINGER_MS);
  assert.equal(uploadWindowMs(30_000), 30_000 - UPLOAD_DEADLINE_MARGIN_MS);
  assert.equal(uploadWindowMs(600_000), 600_000 - UPLOAD_DEADLINE_MARGIN_MS);
});

test('a short request timeout keeps half of itself; none keeps none', () => {
  assert.equal(uploadWindowMs(1000), 500);
  assert.equal(uploadWindowMs(4000), 2000);
  assert.equal(uploadWindowMs(0), 0);
});
