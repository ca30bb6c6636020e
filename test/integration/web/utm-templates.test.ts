// Issue 31: the UTM templates screens (list, new, edit, delete) on the API's rules.
import { randomBytes } from 'node:crypto';
import { onEachEngine } from '../../support/harness.ts';
import { resourcePageTests } from '../../support/web-resources.ts';

onEachEngine('web: UTM templates', (h) => {
  resourcePageTests(h, {
    plural: 'utm-templates',
    page: '/links/utm-templates',
    uniqueName: () => `utm-${randomBytes(4).toString('hex')}`,
    form: (name) => ({
      name,
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: '',
      utm_content: '',
    }),
    invalid: [
      { form: { name: '', utm_source: 'newsletter' }, field: 'name', message: 'The name field is required.' },
      {
        form: { name: 'Long source', utm_source: 's'.repeat(201) },
        field: 'utm_source',
        message: 'The utm source field must not be greater than 200 characters.',
      },
      {
        form: { name: 'Control', utm_medium: 'e\u0001mail' },
        field: 'utm_medium',
        message: 'The utm medium format is invalid.',
        kept: false,
      },
    ],
    edit: {
      form: (name) => ({ name, utm_source: 'ads', utm_medium: '', utm_campaign: 'fall' }),
      expect: (name) => ({ name, utm_source: 'ads', utm_medium: '', utm_campaign: 'fall' }),
    },
    badEdit: { form: () => ({ name: '   ', utm_source: 'x' }), field: 'name', message: 'The name field is required.' },
    scriptForm: { name: '<script>alert(1)</script>', utm_source: '<script>alert(2)</script>' },
  });
});
