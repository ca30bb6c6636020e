import type { SpaceStore } from '../spaces/space-store.ts';
import type { DomainStore } from '../domains/domain-store.ts';
import type { PixelStore } from '../pixels/pixel-store.ts';
import type { TagStore } from '../tags/tag-store.ts';
import type { LinkHealthStore } from '../health/ports.ts';
import type { Link, LinkView } from './link.ts';

/** Joins links to their space, domain, pixels and tags with one query per kind, whatever the page size. */
export class LinkViews {
  /** tags absent (in-memory stores of tests that need none): every link reads untagged. */
  constructor(
    private readonly deps: {
      spaces: SpaceStore;
      domains: DomainStore;
      pixels: PixelStore;
      tags?: TagStore | undefined;
      /** Absent (in-memory stores of tests): every link's health reads unknown. */
      health?: Pick<LinkHealthStore, 'healthOf'> | undefined;
    },
  ) {}

  async of(accountId: number, links: readonly Link[]): Promise<LinkView[]> {
    const ids = (pick: (l: Link) => readonly (number | null)[]) => [
      ...new Set(links.flatMap(pick).filter((x): x is number => x !== null)),
    ];
    const [spaces, domains, pixels, tags, health] = await Promise.all([
      this.deps.spaces.findByIds(
        accountId,
        ids((l) => [l.spaceId]),
      ),
      this.deps.domains.findByIds(
        accountId,
        ids((l) => [l.domainId]),
      ),
      this.deps.pixels.findByIds(
        accountId,
        ids((l) => l.pixelIds),
      ),
      this.deps.tags?.tagsOfLinks(
        accountId,
        links.map((l) => l.id),
      ),
      this.deps.health?.healthOf(
        accountId,
        links.map((l) => l.id),
      ),
    ]);
    const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
    const spaceMap = byId(spaces);
    const domainMap = byId(domains);
    const pixelMap = byId(pixels);
    return links.map((link) => ({
      link,
      space: link.spaceId === null ? null : (spaceMap.get(link.spaceId) ?? null),
      domain: link.domainId === null ? null : (domainMap.get(link.domainId) ?? null),
      pixels: link.pixelIds.flatMap((id) => pixelMap.get(id) ?? []),
      tags: tags?.get(link.id) ?? [],
      ...(health?.has(link.id) ? { health: health.get(link.id)! } : {}),
    }));
  }
}
