import type { RedirectLink } from '../redirect/redirect-link.ts';
import type { ConsentMode } from '../redirect/resolve-visit.ts';
import { NotFoundError } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import { explainVisit, type ExplainProbe, type Explanation } from './explain.ts';

/** An account's link as the redirect reads it (compiled rules and all), with its pixels' ids. */
export interface OwnedRedirectLinks {
  /** null: no such link, or another account's. */
  owned(accountId: number, linkId: number): Promise<{ link: RedirectLink; pixelIds: number[] } | null>;
}

export interface ExplainAnswer extends Explanation {
  /** The ids of the pixels that fire on the way (empty when none do). */
  pixels: number[];
}

/** GET /api/v1/links/{id}/explain (docs/api.md §18): a visit explained, nothing recorded. */
export class RuleExplainer {
  constructor(
    private readonly deps: {
      links: OwnedRedirectLinks;
      clock: Clock;
      consentMode: ConsentMode;
      /** A split's draw, as the redirect's; tests seed it. */
      random?: () => number;
    },
  ) {}

  /** `at` undefined: now. */
  async explain(
    accountId: number,
    linkId: number,
    probe: Omit<ExplainProbe, 'at'> & { at: number | undefined },
  ): Promise<ExplainAnswer> {
    const owned = await this.deps.links.owned(accountId, linkId);
    if (owned === null) throw new NotFoundError('link');
    const at = probe.at ?? this.deps.clock.now();
    const explained = explainVisit(
      owned.link,
      { ...probe, at },
      { consentMode: this.deps.consentMode, random: this.deps.random ?? Math.random },
    );
    return { ...explained, pixels: explained.firesPixels ? owned.pixelIds : [] };
  }
}
