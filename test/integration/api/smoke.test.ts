import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';

onEachEngine('API smoke', (h) => {
  test('create and read a link', async () => {
    const { key } = await h().account();
    const made = await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/a' } });
    assert.equal(made.status, 201);
    const read = await h().request('GET', `/api/v1/links/${made.body.data.id}`, { key });
    assert.equal(read.body.data.url, 'https://example.com/a');
  });
});
