import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusedSchemesOf, type StoredDestinations } from './stored-schemes.ts';
import { UrlPolicy } from './url-policy.ts';

const allowed = new UrlPolicy(['http', 'https'], ['MyApp:']);
const link = (fields: Partial<StoredDestinations>): StoredDestinations => ({
  id: 1,
  url: 'https://example.com/',
  iosUrl: null,
  androidUrl: null,
  rules: null,
  ...fields,
});

test('the schemes of a stored link its settings would refuse now: its url, its app links and its rules’', () => {
  assert.deepEqual(refusedSchemesOf(link({ iosUrl: 'https://app.example/', androidUrl: 'MyApp://open' }), allowed), []);
  assert.deepEqual(refusedSchemesOf(link({ androidUrl: 'intent://scan/#Intent;end' }), allowed), ['intent']);
  assert.deepEqual(refusedSchemesOf(link({ url: 'ftp://files.example/' }), allowed), ['ftp']);
  const rules = [
    {
      name: null,
      when: {},
      split: [
        { url: 'https://a.example/', weight: 50 },
        { url: 'gopher://b.example/', weight: 50 },
      ],
    },
    { name: null, when: {}, url: 'https://c.example/', ios_url: 'oldapp://c', android_url: 'intent:#Intent;end' },
  ];
  assert.deepEqual(refusedSchemesOf(link({ rules }), allowed), ['gopher', 'oldapp', 'intent']);
  assert.deepEqual(
    refusedSchemesOf(link({ url: 'http://example.com/' }), new UrlPolicy(['https'], ['myapp'])),
    ['http'],
    'a scheme taken off URL_SCHEMES',
  );
});
