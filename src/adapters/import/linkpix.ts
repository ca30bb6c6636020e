import type { ImportRow } from '../../core/links/import/import-row.ts';
import { csvText } from '../shared/csv/csv.ts';
import { LINK_EXPORT_COLUMNS } from '../shared/csv/link-export.ts';
import { instant, int, nameList, targetList, text } from './cells.ts';
import { truthy, withoutSecrets } from './carried-secrets.ts';
import { csvRows, jsonRows, type ImportFormat } from './format.ts';

type Named = { name?: unknown } | null | undefined;
const nameOf = (v: Named) => (v && typeof v.name === 'string' ? v.name : undefined);
const str = (v: unknown) =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/**
 * linkpix's own export (api.md §13), read back unchanged: records are named, not numbered.
 * Version 2 adds `tags` (names); version 1, without them, imports untagged.
 */
function fromRecord(
  r: Record<string, unknown>,
  space: string | undefined,
  domain: string | undefined,
  pixels: string[] | undefined,
  tags: string[] | undefined,
): Omit<ImportRow, 'line'> {
  const notes: string[] = [];
  const input = withoutSecrets(
    {
      url: str(r.url),
      alias: str(r.alias),
      title: str(r.title) ?? null,
      target_type: int('target_type', str(r.target_type)),
      country: targetList('country_target', str(r.country_target)),
      platform: targetList('platform_target', str(r.platform_target)),
      language: targetList('language_target', str(r.language_target)),
      rotation: targetList('rotation_target', str(r.rotation_target)),
      disabled: int('disabled', str(r.disabled)),
      privacy: int('privacy', str(r.privacy)),
      expiration_url: str(r.expiration_url) ?? null,
      expiration_clicks: int('expiration_clicks', str(r.expiration_clicks)) ?? null,
      ...(tags === undefined ? {} : { tags }),
      ...ownRules(r),
      // Absent from older files: left unsent rather than cleared.
      ios_url: str(r.ios_url) || undefined,
      android_url: str(r.android_url) || undefined,
      track_conversions: int('track_conversions', str(r.track_conversions)),
      social_card: socialCardOf(r.social_card),
    },
    { password: truthy(r.password), privacyPassword: truthy(r.privacy_password) },
    notes,
  );
  return {
    input,
    endsAt: instant('ends_at', str(r.ends_at)),
    spaceName: space ?? null,
    domainName: domain ?? null,
    pixelNames: pixels ?? [],
    notes,
  };
}

/**
 * The rules of a link that had its own (target_type 0): a phpShort target's rules are only its
 * list read as rules, and the list comes back through target_type.
 */
function ownRules(r: Record<string, unknown>): { rules?: unknown } {
  const rules = typeof r.rules === 'string' ? (r.rules.trim() === '' ? undefined : r.rules) : r.rules;
  if (rules === undefined || rules === null || str(r.target_type) !== '0') return {};
  return { rules };
}

/** The card as a record holds it, or as the CSV's JSON text; absent from older files: left unsent. */
function socialCardOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  if (v.trim() === '') return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v; // the core names social_card as invalid
  }
}

const json = (v: unknown) => (v === null || v === undefined ? undefined : JSON.stringify(v));

export const linkpixCsv: ImportFormat = {
  name: 'linkpix-csv',
  columns: {
    alias: ['alias'],
    url: ['url'],
    title: ['title'],
    space: ['space'],
    domain: ['domain'],
    pixels: ['pixels'],
    tags: ['tags'],
  },
  // The export's other columns read back; its ids, short URL, counts and instants of this installation are not.
  alsoReads: LINK_EXPORT_COLUMNS.filter(
    (c) =>
      ![
        'id',
        'short_url',
        'last_rotation',
        'clicks',
        'space_id',
        'domain_id',
        'pixel_ids',
        'created_at',
        'updated_at',
      ].includes(c),
  ),
  detect: (head) =>
    ['short_url', 'rotation_target', 'last_rotation', 'pixel_ids'].every((c) => head.header.includes(c)),
  rows: (source) =>
    csvRows(source, (raw) => {
      const cells: Record<string, string> = {};
      for (const c of LINK_EXPORT_COLUMNS) cells[c] = csvText(raw[c] ?? '');
      return fromRecord(
        cells,
        text(cells.space),
        text(cells.domain),
        nameList('pixels', cells.pixels),
        nameList('tags', cells.tags),
      );
    }),
};

export const linkpixJson: ImportFormat = {
  name: 'linkpix-json',
  detect: (head) => /^\s*\{\s*"format"\s*:\s*"linkpix\.links"/.test(head.text),
  rows: (source) =>
    jsonRows(source, '$.links.*', (r) =>
      fromRecord(
        {
          ...r,
          country_target: json(r.country_target),
          platform_target: json(r.platform_target),
          language_target: json(r.language_target),
          rotation_target: json(r.rotation_target),
        },
        nameOf(r.space as Named),
        nameOf(r.domain as Named),
        Array.isArray(r.pixels) ? (r.pixels as Named[]).map(nameOf).filter((n): n is string => n !== undefined) : [],
        Array.isArray(r.tags) ? r.tags.filter((n): n is string => typeof n === 'string') : undefined,
      ),
    ),
};
