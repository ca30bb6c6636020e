/** The domains screens. */
export const domains = {
  title: 'Domains',
  intro: 'Your own host names for short links. A domain serves links once you prove you control it.',
  caption: 'Your domains',
  add: 'New domain',
  newTitle: 'New domain',
  editTitle: (name: string) => `Domain ${name}`,
  deleteTitle: (name: string) => `Delete domain ${name}?`,
  deleteEffect: 'Its links are deleted with it. This cannot be undone.',
  created: (name: string) => `Domain ${name} added. Prove you control it to make it serve links.`,
  updated: (name: string) => `Domain ${name} saved.`,
  deleted: (name: string) => `Domain ${name} deleted.`,
  empty: 'No domains yet.',
  noMatch: 'No domain matches this search.',
  searchLabel: 'Search domains by name',
  fields: {
    name: 'Host name',
    index_page: 'Home page',
    not_found_page: 'Not-found page',
    status: 'Status',
  },
  appFiles: {
    legend: 'App links',
    hint: 'The files iOS and Android read to open this domain’s links in your app, as JSON. Leave a box empty to serve nothing.',
    apple_app_site_association: 'apple-app-site-association',
    assetlinks: 'assetlinks.json',
    fileHint: (name: 'apple_app_site_association' | 'assetlinks') =>
      name === 'assetlinks'
        ? 'Served at /.well-known/assetlinks.json: a list of statements.'
        : 'Served at /.well-known/apple-app-site-association: an object with applinks, webcredentials or appclips.',
  },
  nameHint: 'For example go.example.com, pointed at this service.',
  renameHint: 'Changing the name starts a new verification.',
  indexPageHint: 'Where a visit to the domain itself goes. Leave empty for this service’s page.',
  notFoundPageHint: 'Where an unknown short link on this domain goes. Leave empty for the not-found page.',
  status: { pending: 'Pending', verified: 'Verified' },
  verification: {
    title: 'Verification',
    verifiedOn: (date: string) => `Verified on ${date}. The domain serves its links.`,
    pending:
      'The domain serves no links until you prove you control its name. Publish the token below in either place, then check.',
    token: 'Token',
    dnsTitle: 'Either a DNS TXT record',
    dnsName: 'Name',
    dnsValue: 'Value',
    fileTitle: 'Or a file on the domain',
    fileUrl: 'URL',
    fileBody: 'Content: the token, nothing else.',
    checkNow: 'Check now',
    verified: (name: string) => `Domain ${name} is verified and now serves its links.`,
    failedTitle: 'Not verified yet',
  },
} as const;
