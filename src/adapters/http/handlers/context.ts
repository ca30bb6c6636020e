import type { FastifyRequest } from 'fastify';
import type { AccountsService } from '../../../core/accounts/accounts-service.ts';
import type { Clock } from '../../../core/shared/clock.ts';
import type { WorkspacesService } from '../../../core/workspaces/workspaces-service.ts';
import type { MembersService } from '../../../core/workspaces/members-service.ts';
import type { InvitationsService } from '../../../core/workspaces/invitations-service.ts';
import type { WorkspaceKeysService } from '../../../core/workspaces/workspace-keys-service.ts';
import type { DomainsService } from '../../../core/domains/domains-service.ts';
import type { LinkImporter } from '../../../core/links/import/link-importer.ts';
import type { LinksService } from '../../../core/links/links-service.ts';
import type { PixelsService } from '../../../core/pixels/pixels-service.ts';
import type { SpacesService } from '../../../core/spaces/spaces-service.ts';
import type { TagsService } from '../../../core/tags/tags-service.ts';
import type { StatsService } from '../../../core/stats/stats-service.ts';
import type { ClickExportService } from '../../../core/stats/click-export.ts';
import type { WebhooksService } from '../../../core/webhooks/webhooks-service.ts';
import type { UtmTemplatesService } from '../../../core/utm/utm-templates-service.ts';
import type { ImportSlots } from '../../import/import-slots.ts';
import type { ShortUrlOptions } from '../presenters/link-record.ts';
import type { QrRenderer } from '../../qr/qr-renderer.ts';
import type { SqlQrLogoStore } from '../../storage/stores/qr-logo-store.ts';
import type { ImageThreads } from '../../images/image-threads.ts';
import type { RuleExplainer } from '../../../core/rules/explain-service.ts';
import type { RulePreview } from '../../../core/rules/rule-preview.ts';
import type { ConversionService } from '../../../core/conversions/conversion-service.ts';
import type { ClickIds } from '../../../core/conversions/click-id.ts';
import type { CountryLookup } from '../../geo/country-lookup.ts';
import type { AuditService } from '../../../core/audit/audit-service.ts';

/** What the API handlers need, handed in by the composition root. */
export interface ApiContext {
  accounts: AccountsService;
  workspaces: WorkspacesService;
  /** A workspace's members and roles; its invitations; its API keys (docs/design/teams.md). */
  members: MembersService;
  invitations: InvitationsService;
  workspaceKeys: WorkspaceKeysService;
  /** The workspaces' audit logs (docs/adr/0071). */
  audit: AuditService;
  /** "Now" for answers that tell whether something has expired (an invitation). */
  clock: Clock;
  links: LinksService;
  pixels: PixelsService;
  spaces: SpacesService;
  tags: TagsService;
  domains: DomainsService;
  stats: StatsService;
  /** Conversions and results per rule and variant (docs/adr/0074). */
  conversions: ConversionService;
  /** The click ids' signer, made once its secret is read from the database (the redirect's too). */
  clickIds: () => Promise<ClickIds>;
  clickExport: ClickExportService;
  webhooks: WebhooksService;
  utmTemplates: UtmTemplatesService;
  importer: LinkImporter;
  /** At most one import per account at a time, and IMPORT_CONCURRENCY on this instance. */
  importSlots: ImportSlots;
  /** URL_SCHEMES: an import's thread checks its rows' URLs by them. */
  urlSchemes: readonly string[];
  urls: ShortUrlOptions;
  /** Draws links' QR codes (the API's and the web app's). */
  qr: QrRenderer;
  /** Links' QR logos, drawn in the centre of their codes (docs/adr/0056). */
  qrLogos: SqlQrLogoStore;
  /** Reads uploaded images (a QR logo) off the event loop (docs/design/images.md). */
  images: ImageThreads;
  /** A link's rules explained and previewed (docs/adr/0066); countries: the redirect's lookup, for a described visitor's address. */
  rules: { explainer: RuleExplainer; preview: RulePreview; countries: Pick<CountryLookup, 'country'> };
  /** Checks that the database answers, for /health. */
  ping(): Promise<void>;
  /** Whether Redis is connected, for /health; null when none is configured. */
  redisUp(): boolean | null;
}

export function rawQueryOf(request: FastifyRequest): string {
  const i = request.url.indexOf('?');
  return i === -1 ? '' : request.url.slice(i + 1);
}

export function pathOf(request: FastifyRequest): string {
  const i = request.url.indexOf('?');
  return i === -1 ? request.url : request.url.slice(0, i);
}
