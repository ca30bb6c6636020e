// Issue 16: the pixels screens (list, new, edit, delete) on the API's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine } from '../../support/harness.ts';
import { apiCreate, resourcePageTests, webAccount } from '../../support/web-resources.ts';

const form = (name: string) => ({ name, type: 'google-ads', value: 'AW-123_x' });

onEachEngine('web: pixels', (h) => {
  resourcePageTests(h, {
    plural: 'pixels',
    uniqueName: () => `px-${randomBytes(4).toString('hex')}`,
    form,
    invalid: [
      { form: { name: '', type: 'facebook', value: '123' }, field: 'name', message: 'The name field is required.' },
      { form: { name: 'Shop', type: '', value: '123' }, field: 'type', message: 'The type field is required.' },
      {
        form: { name: 'Shop', type: 'myspace', value: '123' },
        field: 'type',
        message: 'The selected type is invalid.',
        kept: false,
      },
      {
        form: { name: 'Shop', type: 'facebook', value: 'no spaces!' },
        field: 'value',
        message: 'The value format is invalid.',
      },
      {
        form: { name: 'x'.repeat(33), type: 'facebook', value: '1' },
        field: 'name',
        message: 'The name field must not be greater than 32 characters.',
      },
    ],
    edit: {
      form: (name) => ({ name, type: 'linkedin', value: 'li-9' }),
      expect: (name) => ({ name, type: 'linkedin', value: 'li-9' }),
    },
    badEdit: {
      form: (name) => ({ name, type: 'facebook', value: '"><script>' }),
      field: 'value',
      message: 'The value format is invalid.',
    },
    scriptForm: { name: '<script>alert(1)</script>', type: 'quora', value: 'q1' },
  });

  test("the list names each pixel's type and filters by it", async () => {
    const me = await webAccount(h());
    await apiCreate(h(), me.key, 'pixels', { name: 'Ads', type: 'google-tag-manager', value: 'GTM-1' });
    await apiCreate(h(), me.key, 'pixels', { name: 'Social', type: 'pinterest', value: 'pin1' });
    const all = await me.client.get('/pixels');
    assert.match(all.text, /<td[^>]*>Google Tag Manager<\/td>/);
    assert.match(all.text, /<td[^>]*>Pinterest<\/td>/);
    const filtered = await me.client.get('/pixels?type=pinterest');
    assert.ok(filtered.text.includes('Social') && !filtered.text.includes('>Ads<'));
    assert.match(filtered.text, /<option value="pinterest" selected>/);
  });
});
