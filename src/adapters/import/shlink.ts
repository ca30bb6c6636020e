import { byHeaderKey, tagList, text } from './cells.ts';
import { csvRows, type ImportFormat } from './format.ts';

/**
 * Shlink's short-URL CSV export (shlink-web-client): `createdAt, domain, shortCode, shortUrl,
 * longUrl, title, tags, visits` (tags joined by `|`). A custom `domain` must be one of the account's.
 */
export const shlinkCsv: ImportFormat = {
  name: 'shlink-csv',
  columns: { alias: ['shortCode'], url: ['longUrl'], title: ['title'], domain: ['domain'], tags: ['tags'] },
  detect: (head) => ['shortCode', 'longUrl'].every((h) => head.header.includes(h)),
  rows: (source) =>
    csvRows(source, (raw) => {
      const c = byHeaderKey(raw);
      const domain = text(c.domain);
      const tags = tagList('tags', c.tags);
      return {
        input: {
          alias: text(c.shortcode),
          url: text(c.longurl),
          title: text(c.title) ?? null,
          ...(tags === undefined ? {} : { tags }),
        },
        domainName: domain === undefined || domain.toUpperCase() === 'DEFAULT' ? null : domain,
      };
    }),
};
