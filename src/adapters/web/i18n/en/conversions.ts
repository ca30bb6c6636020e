/** A link's conversions page: results per rule and split variant, and a split's winner. */
export const conversions = {
  title: 'Conversions',
  pageTitle: (shortUrl: string) => `Conversions of ${shortUrl}`,
  intro:
    'Clicks and conversions per rule and split variant. A p-value compares a variant with its split’s first one: below 0.05 is unlikely to be chance.',
  off: 'This link does not add a click id to its visits yet: tick “Track conversions” on its edit page.',
  caption: 'Results per rule and variant',
  none: 'No clicks or conversions yet.',
  columns: {
    rule: 'Rule',
    variant: 'Variant',
    url: 'Destination',
    clicks: 'Clicks',
    conversions: 'Conversions',
    rate: 'Rate',
    pValue: 'p-value',
    action: 'Action',
  },
  noRule: 'No rule (the link’s URL)',
  rule: (index: number, name: string) => (name === '' ? `Rule ${index + 1}` : `Rule ${index + 1}: ${name}`),
  variant: (index: number) => `Variant ${index + 1}`,
  gone: 'No longer in the rules',
  nothing: '—',
  choose: (variant: number) => `Choose variant ${variant + 1} as the winner`,
  chosen: 'The split has ended: its rule now sends everyone to the winner.',
  editLink: 'Edit the link',
  rulesLink: 'Rules',
};
