import type { WebFeature } from './feature.ts';
import { authPages } from './auth/auth-pages.ts';
import { ssoPages } from './auth/sso-pages.ts';
import { dashboardPages } from './dashboard/dashboard-page.ts';
import { analyticsPages } from './analytics/analytics-pages.ts';
import { linkListPages } from './links/link-list-pages.ts';
import { linkFormPages } from './links/link-form-pages.ts';
import { bulkShortenPages } from './links/bulk-shorten-pages.ts';
import { linkImportPages } from './links/link-import-pages.ts';
import { tagsPages } from './tags/tags-pages.ts';
import { pixelsPages } from './pixels/pixels-pages.ts';
import { spacesPages } from './spaces/spaces-pages.ts';
import { domainsPages } from './domains/domains-pages.ts';
import { accountPages } from './account/account-pages.ts';
import { adminPages } from './admin/admin-pages.ts';
import { statsPages } from './stats/stats-pages.ts';
import { utmTemplatesPages } from './utm/utm-templates-pages.ts';
import { livePages } from './live/live-pages.ts';
import { loginStepsPages } from './security/login-steps-pages.ts';
import { securityPages } from './security/security-pages.ts';
import { verifyEmailPages } from './security/verify-email-pages.ts';
import { workspacesPages } from './workspaces/workspaces-pages.ts';
import { invitationPages } from './workspaces/invitation-pages.ts';
import { auditPages } from './audit/audit-pages.ts';
import { integrationsPages } from './integrations/integrations-pages.ts';
import { webhooksPages } from './webhooks/webhooks-pages.ts';
import { privacyPages } from './privacy/privacy-pages.ts';

/** Every screen family of the web app, in the order their routes are registered. */
export const WEB_FEATURES: readonly WebFeature[] = [
  authPages,
  ssoPages,
  loginStepsPages,
  verifyEmailPages,
  dashboardPages,
  analyticsPages,
  // /links/bulk and /links/new before /links/:id/…: static paths are matched first anyway, but
  // keeping them together reads as the route table it is.
  bulkShortenPages,
  linkImportPages,
  tagsPages,
  linkFormPages,
  linkListPages,
  utmTemplatesPages,
  pixelsPages,
  spacesPages,
  domainsPages,
  webhooksPages,
  accountPages,
  securityPages,
  workspacesPages,
  invitationPages,
  auditPages,
  integrationsPages,
  adminPages,
  privacyPages,
  statsPages,
  livePages,
];
