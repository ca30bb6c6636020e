import { sql, type Kysely, type Selectable } from 'kysely';
import type { ClickedIn, Conversion, ConversionStore, NewConversion } from '../../../core/conversions/conversion.ts';
import type { ClickGroup } from '../../../core/conversions/results.ts';
import { parseDecision } from '../../../core/stats/decision-value.ts';
import type { Storage } from '../connect.ts';
import type { ConversionsTable, Database } from '../schema.ts';

const toConversion = (r: Selectable<ConversionsTable>): Conversion => ({
  id: Number(r.id),
  linkId: Number(r.link_id),
  clickId: r.click_id,
  rule: r.rule === null ? null : Number(r.rule),
  variant: r.variant === null ? null : Number(r.variant),
  name: r.name,
  value: r.value === null ? null : Number(r.value),
  currency: r.currency,
  clickedAt: Number(r.clicked_at),
  createdAt: Number(r.created_at),
});

const orNull = (v: number | string | null) => (v === null ? null : Number(v));

/**
 * Conversions (docs/design/rules.md): one row per click id and name, kept so by a unique index (a
 * repeat, concurrent or not, inserts nothing and reads the first); the clicks per rule and
 * variant from the `decision` rollups, daily and folded into months, as every statistic. The
 * results sum every conversion and rollup row of the link, as many as it ever had: read through
 * `storage.reads` (docs/design/event-loop.md).
 */
export class SqlConversionStore implements ConversionStore {
  private readonly db: Kysely<Database>;
  private readonly reads: Kysely<Database>;

  constructor(storage: Pick<Storage, 'db' | 'reads'>) {
    this.db = storage.db;
    this.reads = storage.reads;
  }

  async record(c: NewConversion): Promise<{ conversion: Conversion; created: boolean }> {
    const inserted = await this.db
      .insertInto('conversions')
      .values({
        link_id: c.linkId,
        click_id: c.clickId,
        rule: c.rule,
        variant: c.variant,
        name: c.name,
        value: c.value,
        currency: c.currency,
        clicked_at: c.clickedAt,
        created_at: c.createdAt,
      })
      .onConflict((oc) => oc.columns(['click_id', 'name']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { conversion: toConversion(inserted), created: true };
    const first = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('click_id', '=', c.clickId)
      .where('name', '=', c.name)
      .executeTakeFirstOrThrow();
    return { conversion: toConversion(first), created: false };
  }

  async namesOf(clickId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('conversions')
      .select('name')
      .where('click_id', '=', clickId)
      .limit(limit)
      .execute();
    return rows.map((r) => r.name);
  }

  async clickGroups(linkId: number): Promise<ClickGroup[]> {
    const { rows } = await sql<{ dimension: string; value: string; count: number | string }>`
      select dimension, value, sum(count) as count from (
        select dimension, value, count from click_rollups where link_id = ${linkId} and dimension in ('total', 'decision')
        union all
        select dimension, value, count from click_rollup_months where link_id = ${linkId} and dimension in ('total', 'decision')
      ) r group by dimension, value`.execute(this.reads);
    let rest = 0;
    const groups: ClickGroup[] = [];
    for (const r of rows) {
      const n = Number(r.count);
      if (r.dimension === 'total') rest += n;
      const decided = r.dimension === 'decision' ? parseDecision(r.value) : null;
      if (decided === null) continue;
      groups.push({ ...decided, clicks: n });
      rest -= n;
    }
    groups.push({ rule: null, variant: null, clicks: Math.max(0, rest) });
    return groups;
  }

  async conversionGroups(linkId: number, clickedIn?: ClickedIn) {
    let base = this.reads.selectFrom('conversions').where('link_id', '=', linkId);
    if (clickedIn) base = base.where('clicked_at', '>=', clickedIn.from).where('clicked_at', '<', clickedIn.to);
    const [byName, converted] = await Promise.all([
      base
        .select([
          'rule',
          'variant',
          'name',
          'currency',
          (eb) => eb.fn.countAll<number | string>().as('count'),
          (eb) => eb.fn.sum<number | string | null>('value').as('value'),
        ])
        .groupBy(['rule', 'variant', 'name', 'currency'])
        .execute(),
      base
        .select(['rule', 'variant', (eb) => eb.fn.count<number | string>('click_id').distinct().as('converted')])
        .groupBy(['rule', 'variant'])
        .execute(),
    ]);
    return {
      byName: byName.map((r) => ({
        rule: orNull(r.rule),
        variant: orNull(r.variant),
        name: r.name,
        currency: r.currency,
        count: Number(r.count),
        value: Number(r.value ?? 0),
      })),
      converted: converted.map((r) => ({
        rule: orNull(r.rule),
        variant: orNull(r.variant),
        converted: Number(r.converted),
      })),
    };
  }
}
