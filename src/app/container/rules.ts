import type { LinksService } from '../../core/links/links-service.ts';
import type { LinkStore } from '../../core/links/link-store.ts';
import type { UrlPolicy } from '../../core/links/url-policy.ts';
import { RuleExplainer } from '../../core/rules/explain-service.ts';
import { RulePreview } from '../../core/rules/rule-preview.ts';
import { ConversionService } from '../../core/conversions/conversion-service.ts';
import { ClickIds } from '../../core/conversions/click-id.ts';
import { sharedSecret } from '../../adapters/storage/stores/secret-store.ts';
import { SqlStatsStore } from '../../adapters/storage/stores/stats-store.ts';
import { SqlRollupMonths } from '../../adapters/storage/stores/rollup-months.ts';
import { SqlConversionStore } from '../../adapters/storage/stores/conversion-store.ts';
import { SqlOwnedRedirectLinks } from '../../adapters/storage/stores/owned-redirect-links.ts';
import { SqlReplayClickStore } from '../../adapters/storage/stores/replay-click-store.ts';
import type { Base } from './base.ts';

/** Which destination a visit gets, told back (docs/design/rules.md): explain, preview, conversions and the click ids. */
export function ruleServices(base: Base, deps: { links: LinkStore; linksService: LinksService; urls: UrlPolicy }) {
  const { config, storage, clock, visits } = base;
  const clickIds = clickIdsOf(base);
  return {
    clickIds,
    conversions: new ConversionService({
      links: deps.links,
      store: new SqlConversionStore(storage),
      rollups: new SqlStatsStore(storage.db, storage.engine, new SqlRollupMonths(storage.db, storage.engine), {
        now: () => clock.now(),
      }),
      clickIds,
      saveRules: (accountId, timeZone, linkId, rules, actor) =>
        deps.linksService.update(accountId, timeZone, linkId, { rules }, actor),
      clock,
    }),
    rules: {
      explainer: new RuleExplainer({
        links: new SqlOwnedRedirectLinks(storage.db, storage.engine),
        clock,
        consentMode: config.PIXEL_CONSENT,
      }),
      preview: new RulePreview({ links: deps.links, clicks: new SqlReplayClickStore(storage), urls: deps.urls, clock }),
      countries: visits.countries,
    },
  };
}

/** One signer for the redirect and the conversions, made once its secret is read from the database. */
function clickIdsOf({ storage, config }: Base): () => Promise<ClickIds> {
  let clickIds: Promise<ClickIds> | null = null;
  return () =>
    (clickIds ??= sharedSecret(storage.db, 'click-id').then(
      (secret) => new ClickIds(secret, config.CLICK_RETENTION_DAYS),
      (error: unknown) => {
        clickIds = null; // read again next time: the database may be back
        throw error;
      },
    ));
}
