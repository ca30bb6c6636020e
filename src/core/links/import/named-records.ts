import type { DomainStore } from '../../domains/domain-store.ts';
import type { PixelStore } from '../../pixels/pixel-store.ts';
import { SPACE_LIMITS } from '../../spaces/space.ts';
import type { SpaceStore } from '../../spaces/space-store.ts';

const PAGE = { page: 1, perPage: 100 };

/**
 * The account's spaces, domains and pixels by name, each name looked up once per import: a
 * file of a hundred thousand rows names a few of them over and over. A space the account does
 * not have is made by `make`, in the batch's unit of work, so a batch that fails leaves none.
 */
export class NamedRecords {
  /** By name: the space's id, or `'new'` when the account has none (yet). */
  private readonly spaces = new Map<string, number | 'new'>();
  /** Spaces made in the unit under way, known for good once it commits (`kept`). */
  private readonly made = new Map<string, number>();
  private readonly domains = new Map<string, number | null>();
  private readonly pixels = new Map<string, number | null>();

  constructor(
    private readonly accountId: number,
    private readonly stores: { spaces: SpaceStore; domains: DomainStore; pixels: PixelStore },
    private readonly now: () => number,
  ) {}

  /** The space of this name: its id, `'new'` when the account has none (see `make`), null when the name is too long. */
  async space(name: string): Promise<number | 'new' | null> {
    const known = this.spaces.get(name);
    if (known !== undefined) return known;
    if (name.length > SPACE_LIMITS.nameMax) return null;
    const found = (await this.stores.spaces.list(this.accountId, { search: name, sort: 'asc' }, PAGE)).items.find(
      (s) => s.name === name,
    );
    const space = found?.id ?? 'new';
    this.spaces.set(name, space);
    return space;
  }

  /** The space `name` made with `spaces`, the unit's store; once per unit. */
  async make(spaces: SpaceStore, name: string): Promise<number> {
    const known = this.made.get(name) ?? this.spaces.get(name);
    if (typeof known === 'number') return known;
    const { id } = await spaces.insert(this.accountId, { name, color: SPACE_LIMITS.colorMin }, this.now());
    this.made.set(name, id);
    return id;
  }

  /** The unit committed: the spaces it made exist. */
  kept(): void {
    for (const [name, id] of this.made) this.spaces.set(name, id);
    this.made.clear();
  }

  /** The unit rolled back: the spaces it made do not exist. */
  dropped(): void {
    this.made.clear();
  }

  async domain(name: string): Promise<number | null> {
    const key = name.toLowerCase();
    if (this.domains.has(key)) return this.domains.get(key)!;
    const found = (await this.stores.domains.list(this.accountId, { search: key, sort: 'asc' }, PAGE)).items.find(
      (d) => d.name.toLowerCase() === key,
    );
    this.domains.set(key, found?.id ?? null);
    return found?.id ?? null;
  }

  async pixel(name: string): Promise<number | null> {
    if (this.pixels.has(name)) return this.pixels.get(name)!;
    const found = (await this.stores.pixels.list(this.accountId, { search: name, sort: 'asc' }, PAGE)).items.find(
      (p) => p.name === name,
    );
    this.pixels.set(name, found?.id ?? null);
    return found?.id ?? null;
  }
}
