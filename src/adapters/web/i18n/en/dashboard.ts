/** The dashboard screens. */
export const dashboard = {
  title: 'Dashboard',
  quickTitle: 'Shorten a link',
  url: 'URL',
  alias: 'Alias',
  aliasHint: 'Letters, digits, - and _. Blank: a random one.',
  domain: 'Domain',
  defaultDomain: (host: string) => `${host} (default)`,
  shorten: 'Shorten',
  more: 'More options',
  bulk: 'Shorten many',
  created: (shortUrl: string) => `Short link created: ${shortUrl}`,
  totalsTitle: 'Totals',
  totalLinks: 'Links',
  clicks30: 'Clicks, last 30 days',
  clicksToday: 'Clicks today',
  chartTitle: 'Clicks in the last 30 days',
  chartCaption: (from: string, to: string) => `Clicks per day, ${from} to ${to}`,
  chartSummary: (total: number, totalText: string, range: string, peak: { label: string; valueText: string } | null) =>
    peak === null
      ? `No clicks, ${range}.`
      : `${totalText} ${total === 1 ? 'click' : 'clicks'}, ${range}; busiest day ${peak.label} with ${peak.valueText}.`,
  day: 'Day',
  clicks: 'Clicks',
  latestTitle: 'Latest links',
  topTitle: 'Most-clicked links',
  noLinks: 'No links yet.',
  noClicks: 'No clicks yet.',
  shortUrl: 'Short URL',
  destination: 'Destination',
  created_at: 'Created',
  allLinks: 'All links',
} as const;
