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
  gone: 'No longer in the rules',
  nothing: '—',
  /** `variant`: the page number (ui/rule-numbering.ts). */
  choose: (variant: number) => `Choose variant ${variant} as the winner`,
  chosen: 'The split has ended: its rule now sends everyone to the winner.',
  editLink: 'Edit the link',
  rulesLink: 'Rules',
};
