import type { ImportRow } from '../../core/links/import/import-row.ts';
import { byHeaderKey, instant, int, targetList, text } from './cells.ts';
import { withoutSecrets } from './carried-secrets.ts';
import { csvRows, sqlRows, type ImportFormat } from './format.ts';

/** phpShort's `links` table, in its migrations' column order (used when a dump's INSERT names no columns). */
const PHPSHORT_COLUMNS = [
  'id',
  'user_id',
  'space_id',
  'domain_id',
  'alias',
  'url',
  'title',
  'target_type',
  'country_target',
  'platform_target',
  'language_target',
  'rotation_target',
  'last_rotation',
  'privacy',
  'privacy_password',
  'password',
  'disabled',
  'expiration_url',
  'expiration_clicks',
  'clicks',
  'ends_at',
  'created_at',
  'updated_at',
] as const;

/**
 * A phpShort link: its targets are the same JSON lists linkpix keeps; its passwords are
 * encrypted with the installation's key and cannot be carried; its space and domain are ids of
 * the other installation, so the link lands on the default domain without a space.
 */
function fromPhpShort(raw: Record<string, string | null>): Omit<ImportRow, 'line'> {
  const c = byHeaderKey(raw);
  const notes: string[] = [];
  const input = withoutSecrets(
    {
      url: text(c.url),
      alias: text(c.alias),
      title: text(c.title) ?? null,
      target_type: int('target_type', c.targettype),
      country: targetList('country_target', c.countrytarget),
      platform: targetList('platform_target', c.platformtarget),
      language: targetList('language_target', c.languagetarget),
      rotation: targetList('rotation_target', c.rotationtarget),
      disabled: int('disabled', c.disabled),
      privacy: int('privacy', c.privacy),
      expiration_url: text(c.expirationurl) ?? null,
      expiration_clicks: int('expiration_clicks', c.expirationclicks) ?? null,
      // Older phpShort versions kept the expiry as a wall date and time (read in the account's zone).
      ...(text(c.expirationdate)
        ? { expiration_date: text(c.expirationdate), expiration_time: text(c.expirationtime)?.slice(0, 5) }
        : {}),
    },
    { password: text(c.password) !== undefined, privacyPassword: text(c.privacypassword) !== undefined },
    notes,
  );
  if (text(c.domainid))
    notes.push("The link was on a phpShort custom domain: imported on this service's default domain.");
  return { input, ...(text(c.endsat) !== undefined ? { endsAt: instant('ends_at', c.endsat) } : {}), notes };
}

const looksLikePhpShort = (header: string[]) =>
  ['alias', 'url', 'target_type', 'country_target'].every((h) => header.includes(h)) && !header.includes('short_url');

export const phpshortCsv: ImportFormat = {
  name: 'phpshort-csv',
  columns: Object.fromEntries(
    [
      'alias',
      'url',
      'title',
      'target_type',
      'country_target',
      'platform_target',
      'language_target',
      'rotation_target',
      'privacy',
      'disabled',
      'expiration_url',
      'expiration_clicks',
      'ends_at',
    ].map((c) => [c, [c]]),
  ),
  // What fromPhpShort reads besides the fields: a password's presence, a custom domain, older expiry columns.
  alsoReads: ['password', 'privacy_password', 'domain_id', 'expiration_date', 'expiration_time'],
  detect: (head) => looksLikePhpShort(head.header),
  rows: (source) => csvRows(source, fromPhpShort),
};

export const phpshortSql: ImportFormat = {
  name: 'phpshort-sql',
  detect: (head) => /INSERT\s+INTO\s+`?links`?[\s(]/i.test(head.text),
  rows: (source) => sqlRows(source, 'links', PHPSHORT_COLUMNS, fromPhpShort),
};
