import type { DomainStore } from '../../domains/domain-store.ts';
import type { PixelStore } from '../../pixels/pixel-store.ts';
import { SPACE_LIMITS } from '../../spaces/space.ts';
import type { SpaceStore } from '../../spaces/space-store.ts';

const PAGE = { page: 1, perPage: 100 };

/**
 * The account's spaces, domains and pixels by name, each name looked up once per import: a
 * file of a hundred thousand rows names a few of them over and over.
 */
export class NamedRecords {
  private readonly spaces = new Map<string, number | null>();
  private readonly domains = new Map<string, number | null>();
  private readonly pixels = new Map<string, number | null>();

  constructor(
    private readonly accountId: number,
    private readonly stores: { spaces: SpaceStore; domains: DomainStore; pixels: PixelStore },
    private readonly dryRun: boolean,
    private readonly now: () => number,
  ) {}

  /** The space of this name, created when the account has none (0: would be created on a dry run; null: name too long). */
  async space(name: string): Promise<number | null> {
    if (this.spaces.has(name)) return this.spaces.get(name)!;
    let id: number | null = null;
    const found = (await this.stores.spaces.list(this.accountId, { search: name, sort: 'asc' }, PAGE)).items.find((s) => s.name === name);
    if (found) id = found.id;
    else if (name.length <= SPACE_LIMITS.nameMax) {
      id = this.dryRun ? 0 : (await this.stores.spaces.insert(this.accountId, { name, color: SPACE_LIMITS.colorMin }, this.now())).id;
    }
    this.spaces.set(name, id);
    return id;
  }

  async domain(name: string): Promise<number | null> {
    const key = name.toLowerCase();
    if (this.domains.has(key)) return this.domains.get(key)!;
    const found = (await this.stores.domains.list(this.accountId, { search: key, sort: 'asc' }, PAGE)).items.find((d) => d.name.toLowerCase() === key);
    this.domains.set(key, found?.id ?? null);
    return found?.id ?? null;
  }

  async pixel(name: string): Promise<number | null> {
    if (this.pixels.has(name)) return this.pixels.get(name)!;
    const found = (await this.stores.pixels.list(this.accountId, { search: name, sort: 'asc' }, PAGE)).items.find((p) => p.name === name);
    this.pixels.set(name, found?.id ?? null);
    return found?.id ?? null;
  }
}
