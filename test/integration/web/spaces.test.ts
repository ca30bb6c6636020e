// Issue 16: the spaces screens (list, new, edit, delete) on the API's rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine } from '../../support/harness.ts';
import { apiCreate, resourcePageTests, webAccount } from '../../support/web-resources.ts';

onEachEngine('web: spaces', (h) => {
  resourcePageTests(h, {
    plural: 'spaces',
    uniqueName: () => `sp-${randomBytes(4).toString('hex')}`,
    form: (name) => ({ name, color: '2' }),
    invalid: [
      { form: { name: '', color: '3' }, field: 'name', message: 'The name field is required.' },
      {
        form: { name: 'Work', color: '9' },
        field: 'color',
        message: 'The color field must not be greater than 6.',
        kept: false,
      },
      {
        form: { name: 'Work', color: 'red' },
        field: 'color',
        message: 'The color field must be an integer.',
        kept: false,
      },
    ],
    edit: { form: (name) => ({ name, color: '4' }), expect: (name) => ({ name, color: 4 }) },
    badEdit: { form: () => ({ name: '   ', color: '1' }), field: 'name', message: 'The name field is required.' },
    scriptForm: { name: '<script>alert(1)</script>', color: '1' },
  });

  test('a space shows its colour as text and as a swatch that needs no style attribute', async () => {
    const me = await webAccount(h());
    const space = await apiCreate(h(), me.key, 'spaces', { name: 'Launch', color: '5' });
    const list = await me.client.get('/spaces');
    assert.match(
      list.text,
      /<svg class="swatch"[^>]*aria-hidden="true"[^>]*><rect [^>]*fill="#[0-9a-f]{6}"[^>]*\/><\/svg>Purple/,
    );
    assert.ok(!/\sstyle=/.test(list.text), 'no style attribute');
    const edit = await me.client.get(`/spaces/${space.id}/edit`);
    assert.match(edit.text, /<input type="radio" id="f-color-5" name="color" value="5" checked>/);
    assert.match(edit.text, /<legend>Colour<\/legend>/);
  });
});
