import { byHeaderKey, text } from './cells.ts';
import { csvRows, type ImportFormat } from './format.ts';

/** The back-half of a bitlink (`bit.ly/3xYz`, `https://bit.ly/3xYz`): the alias it had. */
function backHalf(bitlink: string | undefined): string | undefined {
  if (bitlink === undefined) return undefined;
  const path = bitlink.replace(/^[a-z]+:\/\//i, '').split(/[?#]/)[0]!;
  const slash = path.indexOf('/');
  return slash < 0 ? undefined : path.slice(slash + 1) || undefined;
}

/**
 * Bitly's links CSV export (`title, bitlink, long_url, created_at, …`; the web app's export
 * spells them `Title, Short link, Long URL, Created`). Links land on the default domain.
 */
export const bitlyCsv: ImportFormat = {
  name: 'bitly-csv',
  detect: (head) => {
    const keys = head.header.map((h) => h.toLowerCase().replace(/[^a-z]/g, ''));
    return (keys.includes('bitlink') || keys.includes('shortlink')) && keys.includes('longurl');
  },
  rows: (source) =>
    csvRows(source, (raw) => {
      const c = byHeaderKey(raw);
      return { input: { alias: backHalf(text(c.bitlink ?? c.shortlink)), url: text(c.longurl), title: text(c.title) ?? null } };
    }),
};
