import type { ConversionResults, Linkpix, StatsQuery, StatsTable } from '@linkpix/sdk';
import { text, whole, type Command } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { clip, json, table } from '../output.js';

const NAMES = [
  'clicks',
  'clicks_hours',
  'country',
  'cities',
  'browser',
  'platform',
  'device',
  'language',
  'referrer',
  'conversions',
] as const;
type Name = (typeof NAMES)[number];

/** Every page of one table, read 100 entries at a time: the range is bounded, so are its pages. */
async function wholeTable(client: Linkpix, id: number, query: StatsQuery): Promise<StatsTable> {
  const entries: StatsTable['data'] = [];
  for (let page = 1; ; page++) {
    const answer = (await client.links.stats(id, { ...query, page, per_page: 100 })) as StatsTable;
    entries.push(...answer.data);
    if (answer.meta.current_page >= answer.meta.last_page) return { ...answer, data: entries };
  }
}

function readableTable({ data, stats }: StatsTable): string {
  const summary = `${stats.name} from ${stats.from} to ${stats.to} (${stats.timezone}): ${stats.total} clicks, ${stats.unique} unique visitors, ${stats.bots} bots`;
  const rows = data.map((e) => [e.value ?? '(none)', String(e.count)]);
  return `${summary}\n\n${table(['VALUE', 'CLICKS'], rows)}`;
}

function readableResults({ data }: ConversionResults): string {
  const rows = data.map((r) => [
    r.rule === null ? '-' : String(r.rule),
    r.variant === null ? '-' : String(r.variant),
    String(r.clicks),
    Object.entries(r.conversions)
      .map(([name, c]) => `${name} ${c.count}`)
      .join(', '),
    `${(r.rate * 100).toFixed(1)}%`,
    clip(r.url ?? '', 50),
  ]);
  return table(['RULE', 'VARIANT', 'CLICKS', 'CONVERSIONS', 'RATE', 'URL'], rows);
}

export const stats: Command = {
  synopsis: 'stats ID [--name clicks|country|referrer|…] [--from YYYY-MM-DD] [--to YYYY-MM-DD]',
  summary: 'a statistics table',
  options: { name: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } },
  args: ['ID'],
  async run(context) {
    const id = whole(context.args[0] ?? '', 'ID');
    const name = (text(context.flags, 'name') ?? 'clicks') as Name;
    if (!NAMES.includes(name)) throw new UsageError(`--name must be one of ${NAMES.join(', ')}`);
    const query: StatsQuery = { name };
    for (const bound of ['from', 'to'] as const) {
      const value = text(context.flags, bound);
      if (value !== undefined) query[bound] = value;
    }
    const client = context.client();
    if (name === 'conversions') {
      const results = (await client.links.stats(id, query)) as ConversionResults;
      return context.io.out(context.flags.json ? json(results) : readableResults(results));
    }
    const read = await wholeTable(client, id, query);
    const { meta: _meta, links: _links, ...answer } = read;
    context.io.out(context.flags.json ? json(answer) : readableTable(read));
  },
};
