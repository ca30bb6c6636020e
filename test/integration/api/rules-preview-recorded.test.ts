// The preview replays a split by the variant each stored click recorded (docs/design/rules.md,
// Preview): 60 real visits that went A 47 / B 13 read 47 / 13 with the current rules, and with an
// unchanged draft, rather than a fresh draw by the weights.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';

const SPLIT = [
  {
    name: 'Test',
    when: {},
    split: [
      { url: 'https://a.example/', weight: 50 },
      { url: 'https://b.example/', weight: 50 },
    ],
  },
];

onEachEngine('rules preview: recorded variants', (h) => {
  test('the current rules read each click’s recorded rule and variant', async () => {
    const { id: accountId, key } = await h().account();
    const made = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', rules: SPLIT },
    });
    assert.equal(made.status, 201, made.text);
    const linkId = made.body.data.id as number;
    const at = Date.now() - 3_600_000;
    const row = (i: number) => ({
      link_id: linkId,
      account_id: accountId,
      at: at + i * 1000,
      country: i % 2 === 0 ? 'US' : 'DE',
      city: null,
      browser: 'Chrome',
      platform: 'Windows',
      device: 'desktop',
      language: 'en',
      referrer_host: null,
      is_bot: 0,
      rule: 0,
      variant: i < 47 ? 0 : 1,
    });
    const db = h().server.container.storage.db;
    await db
      .insertInto('clicks')
      .values(Array.from({ length: 60 }, (_, i) => row(i)))
      .execute();
    const res = await h().request('POST', `/api/v1/links/${linkId}/rules/preview`, { key, json: { rules: SPLIT } });
    assert.equal(res.status, 200, res.text);
    const expected = [
      { url: 'https://a.example/', rule: 0, clicks: 47 },
      { url: 'https://b.example/', rule: 0, clicks: 13 },
    ];
    assert.deepEqual(res.body.data.current, expected);
    assert.deepEqual(res.body.data.draft, expected);
    assert.equal(res.body.data.changed, 0);
  });
});
