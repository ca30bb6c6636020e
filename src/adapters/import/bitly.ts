import { byHeaderKey, headerKey, tagList, text } from './cells.ts';
import { csvRows, type ImportFormat } from './format.ts';

/** The back-half of a bitlink (`bit.ly/3xYz`, `https://bit.ly/3xYz`): the alias it had. */
function backHalf(bitlink: string | undefined): string | undefined {
  if (bitlink === undefined) return undefined;
  const path = bitlink.replace(/^[a-z]+:\/\//i, '').split(/[?#]/)[0]!;
  const slash = path.indexOf('/');
  return slash < 0 ? undefined : path.slice(slash + 1) || undefined;
}

/** Where Bitly's files keep the short link: its CSV export, its web app's export, and its API's `link` field (docs/api.md §15). */
const SHORT_LINK = ['bitlink', 'Short link', 'link'] as const;

/**
 * Bitly's links CSV export (`title, bitlink, long_url, created_at, …`; the web app's export
 * spells them `Title, Short link, Long URL, Created`; its API's bitlinks, `link, long_url,
 * title, …`), `Tags` kept. Links land on the default domain.
 */
export const bitlyCsv: ImportFormat = {
  name: 'bitly-csv',
  columns: { alias: SHORT_LINK, url: ['long_url'], title: ['title'], tags: ['tags'] },
  detect: (head) => {
    const keys = head.header.map(headerKey);
    return SHORT_LINK.some((name) => keys.includes(headerKey(name))) && keys.includes('longurl');
  },
  rows: (source) =>
    csvRows(source, (raw) => {
      const c = byHeaderKey(raw);
      const short = SHORT_LINK.map((name) => text(c[headerKey(name)])).find((v) => v !== undefined);
      const tags = tagList('tags', c.tags);
      return {
        input: {
          alias: backHalf(short),
          url: text(c.longurl),
          title: text(c.title) ?? null,
          ...(tags === undefined ? {} : { tags }),
        },
      };
    }),
};
