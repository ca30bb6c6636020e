import type { Mailer } from '../../core/mail/mailer.ts';
import type { DigestPreferences } from '../../core/health/digest-ports.ts';
import { HealthDigests } from '../../core/health/health-digests.ts';
import { SqlHealthDigestStore } from '../../adapters/storage/stores/health-digest-store.ts';
import type { Base } from './base.ts';

export interface DigestArea {
  /** The daily broken-links digest; null without a mail server (SMTP_URL unset): nothing to send with. */
  healthDigests: HealthDigests | null;
  /** Each person's choice to get it (the account page). */
  digestPreferences: DigestPreferences;
}

/** The broken-links digest (docs/design/health.md), mailed through the same server as invitations. */
export function digestsOf(base: Base, mailServer: Mailer | null): DigestArea {
  const { config, storage, clock } = base;
  const store = new SqlHealthDigestStore(storage.db);
  const onError = base.onError ?? ((e: unknown) => console.error('linkpix: broken-links digest not sent:', e));
  return {
    healthDigests: mailServer
      ? new HealthDigests({
          store,
          mailer: mailServer,
          clock,
          urls: { appUrl: config.APP_URL, domainScheme: config.DOMAIN_SCHEME },
          onError,
        })
      : null,
    digestPreferences: store,
  };
}
