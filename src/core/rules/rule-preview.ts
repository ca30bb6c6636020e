import type { Link } from '../links/link.ts';
import type { UrlPolicy } from '../links/url-policy.ts';
import type { Clock } from '../shared/clock.ts';
import { FieldErrorBag, NotFoundError } from '../shared/errors.ts';
import { LoopSlices } from '../shared/loop-slices.ts';
import { messages } from '../shared/messages.ts';
import { FILTERED_ROWS_MAX, type ClickSpan } from '../stats/filtered-clicks.ts';
import { TargetType } from '../targeting/target.ts';
import { checkRules } from './check-rules.ts';
import { phpShortRules } from './phpshort-rules.ts';
import { PreviewTurns } from './preview-turns.ts';
import { compileReplay, conditionsUsed, needsTime, UNKNOWN_IN_CLICKS, type ClickFacts } from './replay.ts';
import type { ConditionName, Rule } from './rule.ts';

/** The days a preview replays: 30 unless asked, at most PREVIEW_DAYS_MAX. */
export const PREVIEW_DAYS_DEFAULT = 30;
export const PREVIEW_DAYS_MAX = 90;
/** The newest human click rows a preview reads at most, as filtered statistics (docs/design/statistics.md). */
const PREVIEW_ROWS_MAX = FILTERED_ROWS_MAX;
const DAY_MS = 86_400_000;

/** The link's human clicks, grouped in SQL by identical facts, so a replay weighs each combination once. */
export interface ReplayClickStore {
  /**
   * Human clicks of a link in [from, to) grouped by their facts, and by their minute when
   * `byMinute`: a chunk of groups at a time, as many groups as rows at worst.
   */
  groups(linkId: number, span: ClickSpan, byMinute: boolean): AsyncIterable<ClickFacts[]>;
  /** As FilteredClickStore.newestFrom: the instant from which the newest `rows` rows start, or null when there are fewer. */
  newestFrom(linkId: number, span: ClickSpan, rows: number): Promise<number | null>;
}

export interface PreviewRow {
  url: string;
  /** The deciding rule's index; null: the link's url (or its rotation). */
  rule: number | null;
  clicks: number;
}

export interface PreviewAnswer {
  /** Human clicks replayed. */
  clicks: number;
  current: PreviewRow[];
  draft: PreviewRow[];
  /** Clicks the draft would send elsewhere than the current rules (a split's share counted as its weight says). */
  changed: number;
  /** Conditions of either list that stored clicks cannot answer: replayed as not holding. */
  unknown: ConditionName[];
  days: number;
  /** When only the newest PREVIEW_ROWS_MAX clicks were replayed: the instant they start from; else null. */
  since: number | null;
}

export interface RulePreviewDeps {
  links: { findById(accountId: number, id: number): Promise<Link | null> };
  clicks: ReplayClickStore;
  urls: UrlPolicy;
  clock: Clock;
}

/** POST /api/v1/links/{id}/rules/preview (docs/api.md §18): a draft rule list against the link's recent traffic. */
export class RulePreview {
  /** The instance's previews: one PreviewTurns per RulePreview, and one RulePreview per instance. */
  private readonly turns = new PreviewTurns();

  constructor(private readonly deps: RulePreviewDeps) {}

  /** `caller`: who asks (a person, through any key or web session), each of whom has one preview at a time. */
  async preview(
    caller: string,
    accountId: number,
    linkId: number,
    input: { rules?: unknown; days?: unknown },
  ): Promise<PreviewAnswer> {
    const link = await this.deps.links.findById(accountId, linkId);
    if (link === null) throw new NotFoundError('link');
    const bag = new FieldErrorBag();
    if (input.rules === undefined) bag.add('rules', messages.required('rules'));
    const draft = checkRules(bag, input.rules, this.deps.urls);
    const days = daysOf(bag, input.days);
    bag.throwIfAny();
    return this.turns.run(caller, () => this.replay(link, draft ?? null, days));
  }

  private async replay(link: Link, draft: Rule[] | null, days: number): Promise<PreviewAnswer> {
    const current = link.rules ?? phpShortRules(link.targetType, link.targets);
    const rotation =
      link.rules === null && link.targetType === TargetType.Rotation
        ? (link.targets.rotation ?? []).map((e) => e.value)
        : [];
    const fallback = rotation.length > 0 ? rotation : [link.url];
    const used = new Set([...conditionsUsed(current), ...conditionsUsed(draft)]);
    const to = this.deps.clock.now();
    const span = { from: to - days * DAY_MS, to };
    const cut = await this.deps.clicks.newestFrom(link.id, span, PREVIEW_ROWS_MAX);
    const since = cut !== null && cut > span.from ? cut : null;
    const groups = this.deps.clicks.groups(link.id, { from: since ?? span.from, to }, needsTime(used));
    // The current rules decided these clicks: a split's recorded variants are read back, not drawn again.
    const recorded = link.rules;
    const now = compileReplay(current, fallback, recorded);
    const next = compileReplay(draft, [link.url], recorded);
    const cur = new Tally();
    const dra = new Tally();
    let clicks = 0;
    let changed = 0;
    // Each of up to PREVIEW_ROWS_MAX groups goes through two lists of up to 50 rules: in slices.
    const slices = new LoopSlices();
    for await (const chunk of groups) {
      for (const group of chunk) {
        if (slices.due()) await slices.pause();
        clicks += group.count;
        const a = now(group);
        const b = next(group);
        cur.add(a.rule, a.urls, group.count);
        dra.add(b.rule, b.urls, group.count);
        // The part of the group that must move: what the draft does not send where it went.
        let kept = 0;
        for (const x of a.urls) kept += Math.min(x.share, b.urls.find((y) => y.url === x.url)?.share ?? 0);
        changed += group.count * (1 - kept);
      }
    }
    return {
      clicks,
      current: cur.rows(),
      draft: dra.rows(),
      changed: Math.round(changed),
      unknown: UNKNOWN_IN_CLICKS.filter((n) => used.has(n)),
      days,
      since,
    };
  }
}

function daysOf(bag: FieldErrorBag, input: unknown): number {
  if (input === undefined || input === null || input === '') return PREVIEW_DAYS_DEFAULT;
  const n = typeof input === 'string' && /^\d+$/.test(input) ? Number(input) : input;
  if (typeof n !== 'number' || !Number.isInteger(n)) bag.add('days', messages.integer('days'));
  else if (n < 1) bag.add('days', messages.min('days', 1));
  else if (n > PREVIEW_DAYS_MAX) bag.add('days', messages.max('days', PREVIEW_DAYS_MAX));
  else return n;
  return PREVIEW_DAYS_DEFAULT;
}

/** Clicks per (rule, url), a split's shares summed before rounding. */
class Tally {
  private readonly sums = new Map<string, PreviewRow>();
  add(rule: number | null, urls: ReadonlyArray<{ url: string; share: number }>, count: number): void {
    for (const { url, share } of urls) {
      const key = `${rule ?? ''}\n${url}`;
      const row = this.sums.get(key) ?? { url, rule, clicks: 0 };
      row.clicks += count * share;
      this.sums.set(key, row);
    }
  }
  rows(): PreviewRow[] {
    return [...this.sums.values()]
      .map((r) => ({ ...r, clicks: Math.round(r.clicks) }))
      .sort((a, b) => b.clicks - a.clicks || (a.rule ?? Infinity) - (b.rule ?? Infinity) || a.url.localeCompare(b.url));
  }
}
