import type { Click } from '../../src/core/clicks/click.ts';
import type { ClickQuota } from '../../src/core/clicks/ports.ts';
import { ClickIds } from '../../src/core/conversions/click-id.ts';
import type { RedirectDomain } from '../../src/core/redirect/redirect-link.ts';
import { ClickStamper } from '../../src/core/stats/click-stamp.ts';
import type { CountryLookup } from '../../src/adapters/geo/country-lookup.ts';
import { MemoryClickQuota } from '../../src/adapters/state/memory-click-quota.ts';
import { MemoryRotationCursor } from '../../src/adapters/state/memory-rotation-cursor.ts';
import { UnlockCookies } from '../../src/adapters/shared/request/unlock-cookies.ts';
import type { RedirectContext } from '../../src/adapters/redirect/visit-context.ts';

/**
 * The redirect's context for unit tests of a visit's answer: nothing in the database but the
 * custom domain given, every visitor in the US, a fixed clock, and the clicks kept in `clicks`.
 */
export function fakeRedirectContext(over: { domain?: RedirectDomain | null; quota?: ClickQuota | undefined } = {}): {
  ctx: RedirectContext;
  clicks: Click[];
} {
  const clicks: Click[] = [];
  const ctx: RedirectContext = {
    source: { find: async () => null, domain: async () => over.domain ?? null },
    cached: null,
    countries: { country: () => 'US' } as unknown as CountryLookup,
    quota: over.quota ?? new MemoryClickQuota(),
    rotation: new MemoryRotationCursor(),
    sink: { record: (c: Click) => void clicks.push(c), flush: async () => {}, close: async () => {} },
    attempts: { consume: async () => ({ allowed: true }), reset: async () => {} },
    unlock: new UnlockCookies('secret', false),
    clock: { now: () => Date.parse('2026-11-23T12:00:00Z') },
    stamper: new ClickStamper('secret'),
    clickIds: new ClickIds('secret', 90),
    verifyPassword: async () => false,
    options: {
      redirectStatus: 302,
      consentMode: 'ask',
      secureCookies: false,
      appUrl: 'http://short.test',
      domainScheme: 'https',
      appHosts: new Set(['short.test']),
    },
  };
  return { ctx, clicks };
}
