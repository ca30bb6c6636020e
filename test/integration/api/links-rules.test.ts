// Link rules through the API (docs/api.md, Rules): write and read, phpShort compatibility,
// warnings beside the record, 422s naming the path, export and import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';

const RULES = [
  { name: 'US iPhone', when: { country: ['us'], os: ['iOS'] }, url: 'https://a.example/' },
  { name: 'German', when: { language: ['de'] }, url: 'https://b.example/de' },
  { name: 'Newsletter', when: { query: { utm_source: 'newsletter' } }, url: 'https://c.example/' },
  {
    name: 'Office hours',
    when: { time: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00', tz: 'Europe/Berlin' } },
    url: 'https://d.example/',
  },
  {
    name: 'Test',
    when: {},
    split: [
      { url: 'https://x.example/', weight: 70 },
      { url: 'https://y.example/', weight: 30 },
    ],
  },
];

onEachEngine('links API: rules', (h) => {
  test('rules are written, read back normalised, and answer no warnings when there is nothing odd', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', rules: RULES },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.warnings, undefined);
    const l = res.body.data;
    assert.equal(l.target_type, 0);
    assert.deepEqual(l.rules[0], {
      name: 'US iPhone',
      when: { country: ['US'], os: ['iOS'] },
      url: 'https://a.example/',
    });
    assert.equal(l.rules.length, 5);
    const read = await h().request('GET', `/api/v1/links/${l.id}`, { key });
    assert.deepEqual(read.body.data.rules, l.rules);
    // A form sends them as JSON text.
    const form = await h().request('PUT', `/api/v1/links/${l.id}`, {
      key,
      form: { rules: JSON.stringify(RULES.slice(0, 1)) },
    });
    assert.equal(form.status, 200, form.text);
    assert.equal(form.body.data.rules.length, 1);
    const cleared = await h().request('PUT', `/api/v1/links/${l.id}`, { key, json: { rules: [] } });
    assert.equal(cleared.body.data.rules, null);
  });

  test('saving answers warnings beside data: unreachable rule, split sum, empty window, repeated country', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/links', {
      key,
      json: {
        url: 'https://example.com/',
        rules: [
          { when: { country: ['US', 'US'] }, url: 'https://a.example/' },
          { when: { country: ['US'], os: ['iOS'] }, url: 'https://b.example/' },
          {
            when: { time: { from: '10:00', to: '10:00', tz: 'UTC' } },
            split: [
              { url: 'https://x.example/', weight: 60 },
              { url: 'https://y.example/', weight: 60 },
            ],
          },
        ],
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(
      res.body.warnings.map((w: { field: string }) => w.field),
      ['rules.0.when.country.1', 'rules.1', 'rules.2.split', 'rules.2.when.time'],
    );
    assert.ok(
      res.body.warnings.every((w: { message: string }) => typeof w.message === 'string' && w.message.length > 0),
    );
    assert.equal(res.body.status, 201);
  });

  test('a bad rule is a 422 naming its path, and nothing is written', async () => {
    const { key } = await h().account();
    const bad = [
      { when: {}, url: 'https://ok.example/' },
      { when: {}, url: 'https://ok.example/' },
      { when: {}, url: 'https://ok.example/' },
      { when: { country: ['US', 'DE', 'XX'] }, url: 'javascript:alert(1)' },
    ];
    const res = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', alias: 'rules-bad', rules: bad },
    });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(Object.keys(res.body.message).sort(), ['rules.3.url', 'rules.3.when.country.2']);
    const list = await h().request('GET', '/api/v1/links', { key });
    assert.equal(list.body.meta.total, 0);
    const many = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', rules: Array.from({ length: 51 }, () => bad[0]) },
    });
    assert.equal(many.status, 422);
    assert.deepEqual(Object.keys(many.body.message), ['rules']);
    const countries = [
      'US',
      'DE',
      'FR',
      'GB',
      'JP',
      'CA',
      'AU',
      'NZ',
      'IT',
      'ES',
      'NL',
      'BE',
      'AT',
      'CH',
      'SE',
      'NO',
      'DK',
      'FI',
      'PL',
      'CZ',
      'PT',
    ];
    const wide = await h().request('POST', '/api/v1/links', {
      key,
      json: {
        url: 'https://example.com/',
        rules: [bad[0], { when: { country: countries }, url: 'https://a.example/' }],
      },
    });
    assert.equal(wide.status, 422, 'at most 20 values a condition');
    assert.deepEqual(Object.keys(wide.body.message), ['rules.1.when.country']);
    const twenty = await h().request('POST', '/api/v1/links', {
      key,
      json: {
        url: 'https://example.com/',
        rules: [{ when: { country: countries.slice(1) }, url: 'https://a.example/' }],
      },
    });
    assert.equal(twenty.status, 201, twenty.text);
    await h().request('DELETE', `/api/v1/links/${twenty.body.data.id}`, { key });
    const notAList = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', rules: 7 },
    });
    assert.equal(notAList.status, 422);
  });

  test('phpShort compatibility: lists read as one-condition rules; writing target_type or a list replaces the rules', async () => {
    const { key } = await h().account();
    const php = await h().request('POST', '/api/v1/links', {
      key,
      form: {
        url: 'https://example.com/',
        target_type: 2,
        platform: [
          { key: 'Linux', value: 'https://linux.example/' },
          { key: 'Ubuntu', value: 'https://ubuntu.example/' },
        ],
      },
    });
    assert.equal(php.status, 201, php.text);
    assert.deepEqual(php.body.data.rules, [
      { name: null, when: { os: ['Ubuntu'] }, url: 'https://ubuntu.example/' },
      { name: null, when: { os: ['Linux'] }, url: 'https://linux.example/' },
    ]);
    const id = php.body.data.id;
    const withRules = await h().request('PUT', `/api/v1/links/${id}`, { key, json: { rules: RULES } });
    assert.equal(withRules.body.data.target_type, 0, 'rules beyond the lists read target_type 0');
    assert.equal(withRules.body.data.rules.length, 5);
    const back = await h().request('PUT', `/api/v1/links/${id}`, {
      key,
      form: { target_type: 1, country: [{ key: 'US', value: 'https://us.example/' }] },
    });
    assert.equal(back.body.data.target_type, 1);
    assert.deepEqual(back.body.data.rules, [{ name: null, when: { country: ['US'] }, url: 'https://us.example/' }]);
    const rotation = await h().request('PUT', `/api/v1/links/${id}`, {
      key,
      form: { target_type: 4, rotation: [{ value: 'https://r1.example/' }, { value: 'https://r2.example/' }] },
    });
    assert.equal(rotation.body.data.rules, null, 'a rotation has no rule equivalent');
  });

  test('the export carries rules (links-import.test.ts imports them back)', async () => {
    const { key } = await h().account();
    const made = await h().request('POST', '/api/v1/links', {
      key,
      json: { url: 'https://example.com/', alias: 'ruled', rules: RULES },
    });
    assert.equal(made.status, 201);
    const json = await h().request('GET', '/api/v1/links/export?format=json', { key });
    assert.equal(json.status, 200, json.text);
    const exported = JSON.parse(json.text);
    assert.equal(exported.version, 2);
    assert.deepEqual(exported.links[0].rules, made.body.data.rules);
    const csv = await h().request('GET', '/api/v1/links/export', { key });
    assert.match(csv.text.split('\r\n')[0]!, /,tags,rules,/);
  });
});
