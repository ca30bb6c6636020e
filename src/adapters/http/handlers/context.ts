import type { FastifyRequest } from 'fastify';
import type { LinkImporter } from '../../../core/links/import/link-importer.ts';
import type { ClickExportService } from '../../../core/stats/click-export.ts';
import type { WebhooksService } from '../../../core/webhooks/webhooks-service.ts';
import type { ClickIds } from '../../../core/conversions/click-id.ts';
import type { RuleExplainer } from '../../../core/rules/explain-service.ts';
import type { RulePreview } from '../../../core/rules/rule-preview.ts';
import type { ImportSlots } from '../../import/import-slots.ts';
import type { QrRenderer } from '../../qr/qr-renderer.ts';
import type { QrLogoStore } from '../../qr/qr-logo-store.ts';
import type { ImageThreads } from '../../images/image-threads.ts';
import type { CardImageStore } from '../../images/card-image-store.ts';
import type { CountryLookup } from '../../geo/country-lookup.ts';
import type { CoreServices } from '../../shared/services/core-services.ts';

/** What the API handlers need, handed in by the composition root: the core's services and the API's own. */
export interface ApiContext extends CoreServices {
  /** The click ids' signer, made once its secret is read from the database (the redirect's too). */
  clickIds: () => Promise<ClickIds>;
  clickExport: ClickExportService;
  webhooks: WebhooksService;
  importer: LinkImporter;
  /** At most one import per account at a time, and IMPORT_CONCURRENCY on this instance. */
  importSlots: ImportSlots;
  /** URL_SCHEMES: an import's thread checks its rows' URLs by them. */
  urlSchemes: readonly string[];
  /** Draws links' QR codes (the API's and the web app's). */
  qr: QrRenderer;
  /** Links' QR logos, drawn in the centre of their codes (docs/design/qr.md). */
  qrLogos: QrLogoStore;
  /** Links' uploaded social card images (docs/design/social-cards.md). */
  cardImages: CardImageStore;
  /** Reads uploaded images (a QR logo, a card image) off the event loop (docs/design/images.md). */
  images: ImageThreads;
  /**
   * A link's rules explained and previewed (docs/design/rules.md); countries: the redirect's lookup, for a described
   * visitor's address.
   */
  rules: { explainer: RuleExplainer; preview: RulePreview; countries: Pick<CountryLookup, 'country'> };
  /** Checks that the database answers, for /health. */
  ping(): Promise<void>;
  /** Whether Redis is connected, for /health; null when none is configured. */
  redisUp(): boolean | null;
  /** Whether the redirect snapshot can answer visits while the database cannot, for /health (docs/design/snapshot.md). */
  snapshotServes(): Promise<boolean>;
}

export function rawQueryOf(request: FastifyRequest): string {
  const i = request.url.indexOf('?');
  return i === -1 ? '' : request.url.slice(i + 1);
}

export function pathOf(request: FastifyRequest): string {
  const i = request.url.indexOf('?');
  return i === -1 ? request.url : request.url.slice(0, i);
}
