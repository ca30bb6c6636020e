import type { Link } from './link.ts';

/**
 * Why a link cannot be served by a static copy (`linkpix export-static`): anything the redirect
 * decides per visit, counts, or stops doing at some time. A static map answers one URL for ever.
 */
export type NotStaticReason =
  | 'disabled'
  | 'suspended'
  | 'pending domain'
  | 'password'
  | 'rules'
  | 'targeting'
  | 'pixels'
  | 'click cap'
  | 'expiry'
  | 'conversion tracking'
  | 'app links';

/** Null when the link is plain: enabled, and the same redirect for every visitor, every time. */
export function whyNotStatic(link: Link): NotStaticReason | null {
  if (link.disabled === 1 || link.blockedAt !== null) return 'disabled';
  if (link.passwordHash !== null) return 'password';
  if (link.rules !== null) return 'rules';
  if (link.targetType !== 0 || hasTargets(link)) return 'targeting';
  if (link.pixelIds.length > 0) return 'pixels';
  if (link.expirationClicks !== null) return 'click cap';
  if (link.endsAt !== null) return 'expiry';
  if (link.trackConversions === 1) return 'conversion tracking';
  if (link.iosUrl !== null || link.androidUrl !== null) return 'app links';
  return null;
}

function hasTargets(link: Link): boolean {
  const { country, platform, language, rotation } = link.targets;
  return [country, platform, language, rotation].some((list) => list !== null && list.length > 0);
}

/** A link as the static export reads it: where it answers, and whether it answers at all. */
export interface HostedStaticLink {
  link: Link;
  /** Its custom domain's name; null: the app's own host. */
  domain: string | null;
  /** False for a pending domain's link, which the redirect does not serve. */
  domainVerified: boolean;
  /** Its workspace is suspended: its links answer as disabled. */
  suspended: boolean;
}

/** Every workspace's links, a page at a time, by id (the operator's export: no account's view). */
export interface StaticLinkSource {
  linksAfter(afterId: number, limit: number): Promise<HostedStaticLink[]>;
}

export type StaticEntry =
  | { kind: 'link'; domain: string | null; alias: string; url: string }
  | { kind: 'skipped'; domain: string | null; alias: string; reason: NotStaticReason };

/** Why a hosted link is not exported, or null: the workspace and domain first, then the link's own fields. */
export function whyNotExported(hosted: HostedStaticLink): NotStaticReason | null {
  if (hosted.suspended) return 'suspended';
  if (!hosted.domainVerified) return 'pending domain';
  return whyNotStatic(hosted.link);
}

/**
 * Every link, plain or the reason it is not, read `pageSize` at a time: memory holds one page
 * however many links there are.
 */
export async function* staticEntries(source: StaticLinkSource, pageSize = 500): AsyncGenerator<StaticEntry> {
  let after = 0;
  for (;;) {
    const page = await source.linksAfter(after, pageSize);
    for (const hosted of page) {
      const { link, domain } = hosted;
      const reason = whyNotExported(hosted);
      yield reason === null
        ? { kind: 'link', domain, alias: link.alias, url: link.url }
        : { kind: 'skipped', domain, alias: link.alias, reason };
    }
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.link.id;
  }
}
