/**
 * The document's tags, in the order /docs shows them: every operation names one of these
 * (src/adapters/http/openapi-examples/, one area a tag), so a new route cannot invent another.
 */
export const OPENAPI_TAGS = [
  {
    name: 'Links',
    description:
      'Short links: create, read, change and delete them, their rules, history, schedule, QR code, imports and exports.',
  },
  { name: 'Statistics', description: "A link's clicks, per day, hour or dimension, and its click rows as a file." },
  { name: 'Conversions', description: 'Sales and sign-ups recorded against the click that led to them.' },
  { name: 'Pixels', description: 'Tracking pixels fired on the way through a link.' },
  { name: 'Spaces', description: 'Folders that group links.' },
  { name: 'Domains', description: 'Custom domains that links answer on, and their verification.' },
  { name: 'Tags', description: 'Labels on links; made by naming them on a link.' },
  { name: 'UTM templates', description: 'Saved sets of UTM parameters to apply to destinations.' },
  { name: 'Webhooks', description: 'Addresses told of link and click events.' },
  {
    name: 'Integrations',
    description: 'Stripe and Shopify endpoints that record sales as conversions against the click that led to them.',
  },
  { name: 'Workspaces', description: 'Workspaces, their members, invitations, API keys and audit log.' },
  { name: 'Account', description: 'The account of the key.' },
] as const;

export type TagName = (typeof OPENAPI_TAGS)[number]['name'];
