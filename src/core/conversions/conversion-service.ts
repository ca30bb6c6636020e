import type { AuditActor } from '../audit/audit-entry.ts';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import type { Link, LinkView } from '../links/link.ts';
import type { Rule } from '../rules/rule.ts';
import type { ClickIds } from './click-id.ts';
import { checkConversion, type ConversionInput } from './conversion-input.ts';
import type { Conversion, ConversionStore } from './conversion.ts';
import { conversionResults, type VariantResult } from './results.ts';
import { rulesWithWinner } from './winner.ts';

export interface ConversionServiceDeps {
  links: {
    findById(accountId: number, id: number): Promise<Link | null>;
    findAnyById(id: number): Promise<Link | null>;
  };
  store: ConversionStore;
  /** The redirect's signer, read once its secret is (docs/design/rules.md). */
  clickIds: () => Promise<Pick<ClickIds, 'read'>>;
  /** Saves a link's rules as an API write does (checks, cache, webhooks). */
  saveRules(accountId: number, timeZone: string, linkId: number, rules: Rule[], actor: AuditActor): Promise<LinkView>;
  clock: Clock;
}

const CLICK_ID_REFUSED = 'The click id is not valid or has expired.';
/** Names a click may convert under: the pixel is open to anyone holding the id, so its rows are bounded. */
const NAMES_PER_CLICK = 20;

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

  /** A link's clicks (those still kept, CLICK_RETENTION_DAYS) and conversions per rule and variant. */
  async results(accountId: number, linkId: number): Promise<VariantResult[]> {
    const link = await this.deps.links.findById(accountId, linkId);
    if (link === null) throw new NotFoundError('link');
    const [clicks, conversions] = await Promise.all([
      this.deps.store.clickGroups(linkId),
      this.deps.store.conversionGroups(linkId),
    ]);
    return conversionResults({ url: link.url, rules: link.rules }, clicks, conversions.byName, conversions.converted);
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
