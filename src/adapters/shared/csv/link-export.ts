import type { LinkView } from '../../../core/links/link.ts';
import { csvChunks } from './csv.ts';
import { linkRecord, type ShortUrlOptions } from '../presenters/link-record.ts';

/**
 * The links export, format 2 (api.md §13): what an importer reads back. The CSV holds the link
 * record's fields, flat: lists as JSON text, the space, domain and pixels by id and by name, the
 * tags by name, the rules as JSON text. Version 2 added `tags`, then `rules` (a file without the
 * column imports without rules), then `ios_url` and `android_url`, then `track_conversions`,
 * then `social_card` (JSON text); the importer reads 1 and 2.
 */
const EXPORT_FORMAT = 'linkpix.links';
const EXPORT_VERSION = 2;

export const LINK_EXPORT_COLUMNS = [
  'id',
  'alias',
  'url',
  'short_url',
  'title',
  'target_type',
  'country_target',
  'platform_target',
  'language_target',
  'rotation_target',
  'last_rotation',
  'disabled',
  'privacy',
  'privacy_password',
  'password',
  'expiration_url',
  'expiration_clicks',
  'clicks',
  'space_id',
  'space',
  'domain_id',
  'domain',
  'pixel_ids',
  'pixels',
  'tags',
  'rules',
  'ios_url',
  'android_url',
  'track_conversions',
  'social_card',
  'ends_at',
  'created_at',
  'updated_at',
] as const;

const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

function exportRow(view: LinkView, urls: ShortUrlOptions) {
  const r = linkRecord(view, urls);
  return [
    r.id,
    r.alias,
    r.url,
    r.short_url,
    r.title,
    r.target_type,
    json(r.country_target),
    json(r.platform_target),
    json(r.language_target),
    json(r.rotation_target),
    r.last_rotation,
    r.disabled,
    r.privacy,
    String(r.privacy_password),
    String(r.password),
    r.expiration_url,
    r.expiration_clicks,
    r.clicks,
    r.space?.id ?? null,
    r.space?.name ?? null,
    r.domain?.id ?? null,
    r.domain?.name ?? null,
    json(r.pixels.map((p) => p.id)),
    json(r.pixels.map((p) => p.name)),
    json(r.tags),
    json(r.rules),
    r.ios_url,
    r.android_url,
    r.track_conversions,
    json(r.social_card),
    r.ends_at,
    r.created_at,
    r.updated_at,
  ];
}

export function linksCsv(chunks: AsyncIterable<LinkView[]>, urls: ShortUrlOptions): AsyncGenerator<string> {
  return csvChunks(LINK_EXPORT_COLUMNS, chunks, (view) => exportRow(view, urls));
}

/**
 * A link record as exported: without `health` and `page_card`, derived state that a check or a
 * title fetch finds again (docs/design/health.md, docs/design/social-cards.md).
 */
function exportedRecord(view: LinkView, urls: ShortUrlOptions) {
  const { health: _health, page_card: _page, ...record } = linkRecord(view, urls);
  return record;
}

/** One JSON document, `{"format", "version", "links": [link records]}`, written a chunk at a time. */
export async function* linksJson(chunks: AsyncIterable<LinkView[]>, urls: ShortUrlOptions): AsyncGenerator<string> {
  // The head goes out with the first chunk, as the CSV's header does (csvChunks).
  let head = `{"format":${JSON.stringify(EXPORT_FORMAT)},"version":${EXPORT_VERSION},"links":[`;
  let separator = '';
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    yield head + separator + chunk.map((view) => JSON.stringify(exportedRecord(view, urls))).join(',');
    head = '';
    separator = ',';
  }
  yield `${head}]}\n`;
}
