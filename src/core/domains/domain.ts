export interface Domain {
  id: number;
  accountId: number;
  /** Lower-case host name, unique across the whole service. */
  name: string;
  /** Where a visit to the domain's root goes; null shows the app's own page. */
  indexPage: string | null;
  /** Where an unknown alias on this domain goes; null shows the 404 page. */
  notFoundPage: string | null;
  /** Random, per domain: what the owner publishes to prove control of the name (verification.ts). */
  verificationToken: string;
  /** When control was proved (or the operator vouched); null while pending, when the domain serves nothing. */
  verifiedAt: number | null;
  /** The app-link files served on the domain's host, as JSON text; null: none (docs/design/domains.md). */
  appleAppSiteAssociation: string | null;
  assetLinks: string | null;
  createdAt: number;
  updatedAt: number;
}

export type DomainStatus = 'pending' | 'verified';

export const statusOf = (domain: Pick<Domain, 'verifiedAt'>): DomainStatus =>
  domain.verifiedAt === null ? 'pending' : 'verified';

export interface DomainInput {
  name?: string | undefined;
  index_page?: string | null | undefined;
  not_found_page?: string | null | undefined;
  /** JSON (or its text), checked by app-site-files.ts. */
  apple_app_site_association?: unknown;
  assetlinks?: unknown;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A DNS host name with at least two labels; no scheme, port, path or trailing dot. */
export function normalizeHostName(raw: string): string | null {
  const host = raw.trim().toLowerCase();
  if (host.length === 0 || host.length > 253) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return null; // an IPv4 address, not a name
  return host;
}
