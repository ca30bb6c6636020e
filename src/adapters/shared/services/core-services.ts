import type { AccountsService } from '../../../core/accounts/accounts-service.ts';
import type { AuditService } from '../../../core/audit/audit-service.ts';
import type { WorkspaceStatsService } from '../../../core/analytics/workspace-stats-service.ts';
import type { ConversionService } from '../../../core/conversions/conversion-service.ts';
import type { IntegrationsService } from '../../../core/integrations/integrations-service.ts';
import type { DomainsService } from '../../../core/domains/domains-service.ts';
import type { LinksService } from '../../../core/links/links-service.ts';
import type { HealthChecks } from '../../../core/health/health-checks.ts';
import type { LinkHistoryService } from '../../../core/links/link-history-service.ts';
import type { LinkScheduleService } from '../../../core/links/link-schedule-service.ts';
import type { PixelsService } from '../../../core/pixels/pixels-service.ts';
import type { RuleExplainer } from '../../../core/rules/explain-service.ts';
import type { RulePreview } from '../../../core/rules/rule-preview.ts';
import type { Clock } from '../../../core/shared/clock.ts';
import type { SpacesService } from '../../../core/spaces/spaces-service.ts';
import type { StatsService } from '../../../core/stats/stats-service.ts';
import type { TagsService } from '../../../core/tags/tags-service.ts';
import type { UtmTemplatesService } from '../../../core/utm/utm-templates-service.ts';
import type { WorkspacesService } from '../../../core/workspaces/workspaces-service.ts';
import type { MembersService } from '../../../core/workspaces/members-service.ts';
import type { InvitationsService } from '../../../core/workspaces/invitations-service.ts';
import type { WorkspaceKeysService } from '../../../core/workspaces/workspace-keys-service.ts';
import type { ShortUrlOptions } from '../presenters/link-record.ts';

/**
 * The core's services the API and the web app both call (one set of rules behind both doors),
 * and what their answers are built with: the app's URLs and "now". Each door's context adds
 * its own (http/handlers/context.ts, web/app/web-context.ts); the composition root hands in one
 * object that is both.
 */
export interface CoreServices {
  accounts: AccountsService;
  workspaces: WorkspacesService;
  /** A workspace's members and roles; its invitations; its API keys (docs/design/teams.md). */
  members: MembersService;
  invitations: InvitationsService;
  workspaceKeys: WorkspaceKeysService;
  /** The workspaces' audit logs (docs/design/teams.md). */
  audit: AuditService;
  /** "Now" for answers that tell whether something has expired (an invitation). */
  clock: Clock;
  links: LinksService;
  /** Links' destination checks (docs/design/health.md): a check at once. */
  health: HealthChecks;
  /** Each link's versions and their restore; its scheduled changes (docs/design/history.md). */
  linkHistory: LinkHistoryService;
  linkSchedules: LinkScheduleService;
  pixels: PixelsService;
  spaces: SpacesService;
  tags: TagsService;
  domains: DomainsService;
  stats: StatsService;
  /** A workspace's numbers across its links (docs/design/statistics.md). */
  workspaceStats: WorkspaceStatsService;
  /** Conversions and results per rule and variant (docs/design/rules.md). */
  conversions: ConversionService;
  /** Sales from Stripe and Shopify, recorded as conversions (docs/design/integrations.md). */
  integrations: IntegrationsService;
  utmTemplates: UtmTemplatesService;
  urls: ShortUrlOptions;
  /** A link's rules explained and previewed (docs/design/rules.md). */
  rules: { explainer: RuleExplainer; preview: RulePreview };
}
