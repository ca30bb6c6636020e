import { instant } from './cells.ts';
import { truthy, withoutSecrets } from './carried-secrets.ts';
import { jsonRows, type ImportFormat } from './format.ts';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Kutt's links as its API lists them (`GET /api/v2/links`: `{"data": [{address, target,
 * description, expire_in, password, banned, domain, …}], …}`), or the `data` list alone.
 */
export const kuttJson: ImportFormat = {
  name: 'kutt-json',
  detect: (head) => /^\s*[[{]/.test(head.text) && /"address"\s*:/.test(head.text) && /"target"\s*:/.test(head.text),
  rows: (source, head) =>
    jsonRows(source, /^\s*\[/.test(head.text) ? '$.*' : '$.data.*', (r) => {
      const notes: string[] = [];
      const input = withoutSecrets(
        {
          alias: str(r.address),
          url: str(r.target),
          title: str(r.description) ?? null,
          ...(truthy(r.banned) ? { disabled: 1 } : {}),
        },
        { password: truthy(r.password), privacyPassword: false },
        notes,
      );
      return { input, endsAt: instant('expire_in', str(r.expire_in)), domainName: str(r.domain) ?? null, notes };
    }),
};
