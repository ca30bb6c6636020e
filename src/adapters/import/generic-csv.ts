import { byHeaderKey, int, tagList, text } from './cells.ts';
import { csvRows, type ImportFormat } from './format.ts';

/** Header names a spreadsheet of links commonly uses, by the create field they mean (reduced: cells.ts headerKey). */
const NAMES = {
  url: ['url', 'longurl', 'destination', 'destinationurl', 'target', 'targeturl', 'link'],
  alias: ['alias', 'slug', 'keyword', 'shortcode', 'code', 'backhalf'],
  title: ['title', 'name', 'description'],
  space: ['space'],
  domain: ['domain'],
  expiration_date: ['expirationdate'],
  expiration_time: ['expirationtime'],
  expiration_clicks: ['expirationclicks'],
  expiration_url: ['expirationurl'],
  disabled: ['disabled'],
  password: ['password'],
  tags: ['tags', 'tag', 'labels'],
} as const;

const pick = (c: Record<string, string | null>, field: keyof typeof NAMES) => {
  for (const name of NAMES[field]) if (text(c[name]) !== undefined) return text(c[name]);
  return undefined;
};

/** Any CSV with a header that names a URL column: the last resort of auto-detection. */
export const genericCsv: ImportFormat = {
  name: 'csv',
  columns: NAMES,
  detect: (head) =>
    head.header.some((h) => (NAMES.url as readonly string[]).includes(h.toLowerCase().replace(/[^a-z0-9]/g, ''))),
  rows: (source) =>
    csvRows(source, (raw) => {
      const c = byHeaderKey(raw);
      const tags = tagList('tags', pick(c, 'tags'));
      return {
        input: {
          url: pick(c, 'url'),
          alias: pick(c, 'alias'),
          title: pick(c, 'title') ?? null,
          expiration_date: pick(c, 'expiration_date'),
          expiration_time: pick(c, 'expiration_time'),
          expiration_clicks: int('expiration_clicks', pick(c, 'expiration_clicks')) ?? null,
          expiration_url: pick(c, 'expiration_url') ?? null,
          disabled: int('disabled', pick(c, 'disabled')),
          password: pick(c, 'password'),
          ...(tags === undefined ? {} : { tags }),
        },
        spaceName: pick(c, 'space') ?? null,
        domainName: pick(c, 'domain') ?? null,
      };
    }),
};
