import type { RawClick } from '../../../core/stats/click-export.ts';
import { csvChunks } from '../../shared/csv/csv.ts';
import { iso } from '../../shared/presenters/records.ts';

/** The clicks export's columns (api.md §8); `bot` is 1 for a bot's visit, which counts no click. */
const CLICK_EXPORT_COLUMNS = [
  'id',
  'at',
  'country',
  'city',
  'browser',
  'platform',
  'device',
  'language',
  'referrer_host',
  'bot',
] as const;

export function clicksCsv(chunks: AsyncIterable<RawClick[]>): AsyncGenerator<string> {
  return csvChunks(CLICK_EXPORT_COLUMNS, chunks, (c) => [
    c.id,
    iso(c.at),
    c.country,
    c.city,
    c.browser,
    c.platform,
    c.device,
    c.language,
    c.referrerHost,
    c.isBot ? 1 : 0,
  ]);
}
