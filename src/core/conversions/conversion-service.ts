import type { AuditActor } from '../audit/audit-entry.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { Link, LinkView } from '../links/link.ts';
import type { Rule } from '../rules/rule.ts';
import type { ClickIds } from './click-id.ts';
import { checkConversion, type ConversionInput } from './conversion-input.ts';
import type { Conversion, ConversionStore } from './conversion.ts';
import { conversionResults, type ClickGroup, type VariantResult } from './results.ts';
import { parseDecision } from '../stats/decision-value.ts';
import { addDays, type DayRange } from '../stats/range.ts';
import type { StatsStore } from '../stats/stats-store.ts';
import { zonedDayStartEpochMs } from '../expiration/ends-at.ts';
import { rulesWithWinner } from './winner.ts';

export interface ConversionServiceDeps {
  links: {
    findById(accountId: number, id: number): Promise<Link | null>;
    findAnyById(id: number): Promise<Link | null>;
  };
  store: ConversionStore;
  /** The statistics' rollups, for the clicks of a period. */
  rollups: Pick<StatsStore, 'counts' | 'summary'>;
  /** The redirect's signer, read once its secret is (docs/design/rules.md). */
  clickIds: () => Promise<Pick<ClickIds, 'read'>>;
  /** Saves a link's rules as an API write does (checks, cache, webhooks). */
  saveRules(accountId: number, timeZone: string, linkId: number, rules: Rule[], actor: AuditActor): Promise<LinkView>;
  clock: Clock;
}

const CLICK_ID_REFUSED = 'The click id is not valid or has expired.';
/** Names a click may convert under: the pixel is open to anyone holding the id, so its rows are bounded. */
const NAMES_PER_CLICK = 20;

/** A period of a statistics page: its days in the account's time zone. */
export interface ResultsPeriod {
  range: DayRange;
  timeZone: string;
}

/** Conversions recorded against signed click ids, and a link's results per rule and variant. */
export class ConversionService {
  constructor(private readonly deps: ConversionServiceDeps) {}

  /**
   * Records a conversion once per click and name; `created` false: the first one, unchanged.
   * accountId: the caller's workspace, whose links alone it may convert (another's is not found);
   * null for the pixel, which anyone holding the click id may load.
   */
  async record(
    accountId: number | null,
    input: ConversionInput,
  ): Promise<{ conversion: Conversion; created: boolean }> {
    const checked = checkConversion(input);
    const now = this.deps.clock.now();
    const read = (await this.deps.clickIds()).read(checked.clickId, now);
    if (!read.ok) throw ValidationError.of('click_id', CLICK_ID_REFUSED);
    const { click } = read;
    const link =
      accountId === null
        ? await this.deps.links.findAnyById(click.linkId)
        : await this.deps.links.findById(accountId, click.linkId);
    if (link === null) throw new NotFoundError('click');
    const names = await this.deps.store.namesOf(click.key, NAMES_PER_CLICK);
    if (names.length >= NAMES_PER_CLICK && !names.includes(checked.name)) {
      throw ValidationError.of('name', `A click converts under at most ${NAMES_PER_CLICK} names.`);
    }
    return this.deps.store.record({
      linkId: link.id,
      clickId: click.key,
      rule: click.rule,
      variant: click.variant,
      name: checked.name,
      value: checked.value,
      currency: checked.currency,
      clickedAt: click.at,
      createdAt: now,
    });
  }

  /**
   * A link's clicks and conversions per rule and variant: since it was created, or those of the
   * clicks made in `period` (a conversion counts in the period of its click, as the rate needs).
   */
  async results(accountId: number, linkId: number, period?: ResultsPeriod): Promise<VariantResult[]> {
    const link = await this.deps.links.findById(accountId, linkId);
    if (link === null) throw new NotFoundError('link');
    const clickedIn = period && {
      from: zonedDayStartEpochMs(period.range.from, period.timeZone),
      to: zonedDayStartEpochMs(addDays(period.range.to, 1), period.timeZone),
    };
    const [clicks, conversions] = await Promise.all([
      period ? this.clickGroupsIn(linkId, period.range) : this.deps.store.clickGroups(linkId),
      this.deps.store.conversionGroups(linkId, clickedIn),
    ]);
    return conversionResults({ url: link.url, rules: link.rules }, clicks, conversions.byName, conversions.converted);
  }

  /** The period's human clicks per deciding rule and variant; the undecided ones under null. */
  private async clickGroupsIn(linkId: number, range: DayRange): Promise<ClickGroup[]> {
    const [decided, summary] = await Promise.all([
      this.deps.rollups.counts(linkId, 'decision', range),
      this.deps.rollups.summary(linkId, range),
    ]);
    let rest = summary.total;
    const groups: ClickGroup[] = [];
    for (const d of decided) {
      const decision = d.value === null ? null : parseDecision(d.value);
      if (decision === null) continue;
      groups.push({ ...decision, clicks: d.count });
      rest -= d.count;
    }
    groups.push({ rule: null, variant: null, clicks: Math.max(0, rest) });
    return groups;
  }

  /** Ends a split: its rule sends everyone to the chosen variant's URL from now on. */
  async chooseWinner(
    account: { id: number; timezone: string },
    linkId: number,
    rule: number,
    variant: number,
    actor: AuditActor,
  ): Promise<LinkView> {
    const link = await this.deps.links.findById(account.id, linkId);
    if (link === null) throw new NotFoundError('link');
    return this.deps.saveRules(
      account.id,
      account.timezone,
      linkId,
      rulesWithWinner(link.rules ?? [], rule, variant),
      actor,
    );
  }
}
