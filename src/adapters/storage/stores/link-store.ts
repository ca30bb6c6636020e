import { sql, type Expression, type ExpressionBuilder, type Kysely, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { ValidationError } from '../../../core/shared/errors.ts';
import { messages } from '../../../core/shared/messages.ts';
import { offsetOf, type CountRequest, type PageRequest } from '../../../core/shared/page.ts';
import { LinkStatus, type Link, type LinkFields, type LinkFilter, type LinkSearchField, type LinkSearchScope } from '../../../core/links/link.ts';
import type { AliasOwner, LinkStore } from '../../../core/links/link-store.ts';
import type { Engine } from '../connect.ts';
import type { Database, LinksTable } from '../schema.ts';
import { containsIgnoringCase, countOf, isUniqueViolation, likeLiteral, pageOf, startsWithIgnoringCase } from '../sql-helpers.ts';
import { storeTransaction } from '../transactions.ts';
import { tagKey } from '../../../core/tags/tag-names.ts';
import { expiryToldAfter, toColumns, toInsert, toLink } from './link-rows.ts';

type LinksEb = ExpressionBuilder<Database, 'links'>;

const PAIRS_PER_INSERT = 1000;

/** The status partition of api.md §5: core/expiration/expiry.ts in SQL (test/integration/links/expiry-agreement.test.ts holds the two together). */
function expired(eb: LinksEb, now: number) {
  return eb.or([
    eb.and([eb('ends_at', 'is not', null), eb('ends_at', '<=', now)]),
    // "is not null" keeps the whole test true or false: a NULL here would make NOT(expired)
    // NULL too, and status=1 would lose every link without a click limit.
    eb.and([eb('expiration_clicks', 'is not', null), eb('expiration_clicks', '>', 0), eb('clicks', '>=', eb.ref('expiration_clicks'))]),
  ]);
}

/** The list's order (api.md §5): by clicks, then the newest first; or by id. */
function ordered<Q extends SelectQueryBuilder<Database, 'links', Selectable<LinksTable>>>(q: Q, sort: LinkFilter['sort']): Q {
  if (sort === 'max' || sort === 'min') return q.orderBy('clicks', sort === 'max' ? 'desc' : 'asc').orderBy('id', 'desc') as Q;
  return q.orderBy('id', sort) as Q;
}

/**
 * The shortest search matched anywhere in the column, through the trigram indexes (migration
 * 0009); shorter ones, which have no trigram, match its start (api.md §5; migration 0017).
 */
const TRIGRAM = 3;

const SEARCH_FIELDS = ['alias', 'url', 'title'] as const satisfies readonly LinkSearchField[];

/**
 * The prefix indexes' key (migrations 0017, 0018), the very expression they were built on: the
 * first two characters of the column, lowered (PostgreSQL) or under NOCASE with the two non-ASCII
 * letters JavaScript lowers into ASCII mapped as it maps them (SQLite: built-in functions only).
 */
function prefixKey(engine: Engine, by: LinkSearchField) {
  const column = sql.ref(by);
  return engine === 'postgres'
    ? sql<string>`left(lower(${column}), 2) collate "C"`
    : sql<string>`substr(replace(replace(substr(${column}, 1, 2), char(8490), 'k'), char(304), 'i' || char(775)), 1, 2) collate nocase`;
}

/**
 * The code point after this one, as a string (null after the last): the strings that start with
 * `point` sort from it to below this, in code point order (PostgreSQL's "C" on UTF-8) and under
 * SQLite's NOCASE (for a lowered `point`: folding turns an upper-case successor into a greater
 * letter, never a smaller one).
 */
function successor(point: string): string | null {
  const next = point.codePointAt(0)! + 1;
  if (next > 0x10ffff) return null;
  // Surrogates are no characters: U+D7FF is followed by U+E000.
  return String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
}

/**
 * A one-character prefix starting at least this many of the account's links is searched on SQLite
 * by reading the account's links in id order, which stops after the page: through the index, every
 * match would be sorted for it.
 */
const COMMON_PREFIX = 2000;

/**
 * A phrase in at least this many links (of every account) is searched by reading the account's
 * links rather than through FTS5, which is slower than the scan for phrases found nearly everywhere.
 */
const RARE_PHRASE = 2000;

/** A word estimated in more links than this many times the rarest word's is left to `strpos` (`containing`). */
const COMMON_WORD_FACTOR = 10;

export class SqlLinkStore implements LinkStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  async insert(accountId: number, fields: LinkFields, pixelIds: readonly number[], now: number): Promise<Link> {
    try {
      return await storeTransaction(this.db, async (trx) => {
        const row = await trx
          .insertInto('links')
          .values(toInsert(accountId, fields, now))
          .returningAll()
          .executeTakeFirstOrThrow();
        if (pixelIds.length > 0) {
          await trx
            .insertInto('link_pixels')
            .values(pixelIds.map((pixel_id) => ({ link_id: row.id, pixel_id })))
            .execute();
        }
        return toLink(row, [...pixelIds]);
      });
    } catch (error) {
      throw this.translate(error);
    }
  }

  async update(accountId: number, id: number, fields: Partial<LinkFields>, pixelIds: readonly number[] | undefined, now: number): Promise<Link | null> {
    try {
      const updated = await storeTransaction(this.db, async (trx) => {
        const told = expiryToldAfter(fields, now);
        const result = await trx
          .updateTable('links')
          .set({ ...toColumns(fields), ...(told ? { expiry_told: told } : {}), updated_at: now })
          .where('id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (pixelIds !== undefined) {
          await trx.deleteFrom('link_pixels').where('link_id', '=', id).execute();
          if (pixelIds.length > 0) {
            await trx
              .insertInto('link_pixels')
              .values(pixelIds.map((pixel_id) => ({ link_id: id, pixel_id })))
              .execute();
          }
        }
        return true;
      });
      return updated ? this.findById(accountId, id) : null;
    } catch (error) {
      throw this.translate(error);
    }
  }

  async findById(accountId: number, id: number): Promise<Link | null> {
    const row = await this.db.selectFrom('links').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    if (!row) return null;
    return toLink(row, (await this.pixelIdsOf([id])).get(id) ?? []);
  }

  async findAnyById(id: number): Promise<Link | null> {
    const row = await this.db.selectFrom('links').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    return toLink(row, (await this.pixelIdsOf([id])).get(id) ?? []);
  }

  async aliasTaken(domainId: number | null, alias: string, exceptId?: number): Promise<boolean> {
    let q = this.db
      .selectFrom('links')
      .select('id')
      .where('alias_key', '=', alias.toLowerCase())
      .where('domain_id', domainId === null ? 'is' : '=', domainId);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async list(accountId: number, filter: LinkFilter, page: PageRequest, now: number, count: CountRequest = {}) {
    const q = await this.matching(accountId, filter, now);
    const bound = count.countUpTo;
    const total =
      this.fromCounters(accountId, filter, now) ??
      (bound === undefined
        ? q.select((eb) => eb.fn.countAll().as('count'))
        : this.db.selectFrom(q.select(sql.lit(1).as('one')).limit(bound).as('matched')).select((eb) => eb.fn.countAll().as('count'))
      )
        .executeTakeFirst()
        .then(countOf);
    const items = ordered(q.selectAll(), filter.sort)
      .limit(page.perPage)
      .offset(offsetOf(page))
      .execute()
      .then((found) => this.withPixels(found));
    const listed = await pageOf(total, items, page);
    return bound !== undefined && listed.total >= bound ? { ...listed, totalIsLowerBound: true } : listed;
  }

  async first(accountId: number, filter: LinkFilter, limit: number, now: number): Promise<Link[]> {
    const q = await this.matching(accountId, filter, now);
    return this.withPixels(await ordered(q.selectAll(), filter.sort).limit(limit).execute());
  }

  async findByIds(accountId: number, ids: readonly number[]): Promise<Link[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('links')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .orderBy('id')
      .execute();
    return this.withPixels(rows);
  }

  async listAfter(accountId: number, filter: LinkFilter, afterId: number, limit: number, now: number): Promise<Link[]> {
    const rows = await (await this.matching(accountId, filter, now)).selectAll().where('id', '>', afterId).orderBy('id').limit(limit).execute();
    return this.withPixels(rows);
  }

  async updateMany(accountId: number, ids: readonly number[], fields: Partial<LinkFields>, now: number): Promise<number[]> {
    if (ids.length === 0) return [];
    const told = expiryToldAfter(fields, now);
    const rows = await this.db
      .updateTable('links')
      .set({ ...toColumns(fields), ...(told ? { expiry_told: told } : {}), updated_at: now })
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async setPixelsMany(accountId: number, ids: readonly number[], pixelIds: readonly number[], now: number): Promise<number[]> {
    if (ids.length === 0) return [];
    return storeTransaction(this.db, async (trx) => {
      const rows = await trx
        .updateTable('links')
        .set({ updated_at: now })
        .where('account_id', '=', accountId)
        .where('id', 'in', [...ids])
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      if (changed.length === 0) return [];
      await trx.deleteFrom('link_pixels').where('link_id', 'in', changed).execute();
      const pairs = changed.flatMap((link_id) => pixelIds.map((pixel_id) => ({ link_id, pixel_id })));
      // Bound the statement's parameters (SQLite allows 32 766) whatever the chunk and list sizes.
      for (let i = 0; i < pairs.length; i += PAIRS_PER_INSERT) {
        await trx
          .insertInto('link_pixels')
          .values(pairs.slice(i, i + PAIRS_PER_INSERT))
          .execute();
      }
      return changed;
    });
  }

  async deleteMany(accountId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .deleteFrom('links')
      .where('account_id', '=', accountId)
      .where('id', 'in', [...ids])
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async delete(accountId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('links').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async aliasOwners(domainId: number | null, aliasKeys: readonly string[]): Promise<Map<string, AliasOwner>> {
    const owners = new Map<string, AliasOwner>();
    if (aliasKeys.length === 0) return owners;
    const rows = await this.db
      .selectFrom('links')
      .select(['id', 'account_id', 'alias_key'])
      .where('alias_key', 'in', [...new Set(aliasKeys)])
      .where('domain_id', domainId === null ? 'is' : '=', domainId)
      .execute();
    for (const r of rows) owners.set(r.alias_key, { id: r.id, accountId: r.account_id });
    return owners;
  }

  async insertMany(accountId: number, items: ReadonlyArray<{ fields: LinkFields; pixelIds: readonly number[] }>, now: number): Promise<number[]> {
    if (items.length === 0) return [];
    try {
      return await storeTransaction(this.db, async (trx) => {
        const rows = await trx
          .insertInto('links')
          .values(items.map((i) => toInsert(accountId, i.fields, now)))
          .returning(['id', 'alias_key', 'domain_id'])
          .execute();
        // RETURNING promises no order: the alias (unique per domain) says which row is which.
        const idOf = new Map(rows.map((r) => [`${r.domain_id ?? ''}/${r.alias_key}`, r.id]));
        const ids = items.map((i) => idOf.get(`${i.fields.domainId ?? ''}/${i.fields.alias.toLowerCase()}`)!);
        const pairs = items.flatMap((i, n) => i.pixelIds.map((pixel_id) => ({ link_id: ids[n]!, pixel_id })));
        for (let i = 0; i < pairs.length; i += PAIRS_PER_INSERT)
          await trx
            .insertInto('link_pixels')
            .values(pairs.slice(i, i + PAIRS_PER_INSERT))
            .execute();
        return ids;
      });
    } catch (error) {
      throw this.translate(error);
    }
  }

  async setTitle(id: number, title: string): Promise<void> {
    // Only fills a gap: a title the owner set meanwhile wins.
    await this.db.updateTable('links').set({ title }).where('id', '=', id).where('title', 'is', null).execute();
  }

  /**
   * The list's total without counting the account's links, where the filter allows: the space,
   * domain and disabled flag are summed from `account_link_counts` (migrations 0014, 0016). Those
   * rows also say which links the expiry sweep found expired (`expiry_told`; a told link is an
   * expired one), so active and expired need count only the links that expired since its last
   * round, in the two partial indexes of untold links (by date, then by cap among the rest).
   * A search or a pixel: null.
   */
  private fromCounters(accountId: number, filter: LinkFilter, now: number): Promise<number> | null {
    if (filter.search || filter.pixelId !== undefined || filter.tag !== undefined) return null;
    let counted = this.db
      .selectFrom('account_link_counts')
      .select((eb) => eb.fn.sum<number | string | null>('count').as('count'))
      .where('account_id', '=', accountId);
    if (filter.spaceId !== undefined) counted = counted.where('space_id', '=', filter.spaceId);
    if (filter.domainId !== undefined) counted = counted.where('domain_id', '=', filter.domainId);
    if (filter.status === LinkStatus.All) return counted.executeTakeFirst().then(countOf);
    if (filter.status === LinkStatus.Disabled) return counted.where('disabled', '=', 1).executeTakeFirst().then(countOf);
    const enabled = counted.where('disabled', '=', 0);
    const told = enabled.where('expiry_told', '=', 1).executeTakeFirst().then(countOf);
    const untold = enabled.where('expiry_told', '=', 0).executeTakeFirst().then(countOf);
    const untoldOfTheList = (eb: LinksEb) => {
      const conditions = [eb('account_id', '=', accountId), eb('disabled', '=', 0), eb('expiry_told', '=', 0)];
      if (filter.spaceId !== undefined) conditions.push(eb('space_id', '=', filter.spaceId));
      if (filter.domainId !== undefined) conditions.push(eb('domain_id', '=', filter.domainId));
      return conditions;
    };
    const byDate = this.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll().as('count'))
      .where((eb) => eb.and([...untoldOfTheList(eb), eb('ends_at', 'is not', null), eb('ends_at', '<=', now)]))
      .executeTakeFirst()
      .then(countOf);
    const byCap = this.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll().as('count'))
      .where((eb) =>
        eb.and([
          ...untoldOfTheList(eb),
          eb('expiration_clicks', '>', 0),
          eb('clicks', '>=', eb.ref('expiration_clicks')),
          eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]),
        ]),
      )
      .executeTakeFirst()
      .then(countOf);
    return Promise.all([told, untold, byDate, byCap]).then(([expiredTold, open, date, cap]) =>
      filter.status === LinkStatus.Expired ? expiredTold + date + cap : open - date - cap,
    );
  }

  /** The account's links that pass the list's filters (api.md §5), before sort and page. */
  private async matching(accountId: number, filter: LinkFilter, now: number) {
    let q = this.db.selectFrom('links').where('account_id', '=', accountId);
    if (filter.search) q = q.where(await this.searchingIn(accountId, filter.by, filter.search));
    if (filter.spaceId !== undefined) q = q.where('space_id', '=', filter.spaceId);
    if (filter.domainId !== undefined) q = q.where('domain_id', '=', filter.domainId);
    if (filter.pixelId !== undefined) {
      const pixelId = filter.pixelId;
      q = q.where((eb) =>
        eb.exists(eb.selectFrom('link_pixels').select('link_id').whereRef('link_pixels.link_id', '=', 'links.id').where('link_pixels.pixel_id', '=', pixelId)),
      );
    }
    if (filter.tag !== undefined) {
      // The tag's id first: the planner then reads the tag's own links off link_tags_tag (tag, link)
      // by its statistics of that tag, where a join to `tags` left it guessing and walking them all.
      const tag = await this.db.selectFrom('tags').select('id').where('account_id', '=', accountId).where('name_key', '=', tagKey(filter.tag)).executeTakeFirst();
      // No tag of that name: no link (ids start at 1).
      const tagId = tag?.id ?? 0;
      q = q.where('links.id', 'in', (eb) => eb.selectFrom('link_tags').select('link_tags.link_id').where('link_tags.tag_id', '=', tagId));
    }
    if (filter.status === LinkStatus.Disabled) q = q.where('disabled', '=', 1);
    if (filter.status === LinkStatus.Expired) q = q.where('disabled', '=', 0).where((eb) => expired(eb, now));
    if (filter.status === LinkStatus.Active) q = q.where('disabled', '=', 0).where((eb) => eb.not(expired(eb, now)));
    return q;
  }

  /**
   * `any`: a link matches when one of its three columns does, each through its own index as
   * below, so the database unites three index reads (PostgreSQL's BitmapOr of an OR; on SQLite a
   * union of ids) rather than reading the account's links.
   */
  private async searchingIn(accountId: number, by: LinkSearchScope, search: string): Promise<Expression<SqlBool>> {
    if (by !== 'any') return this.searching(accountId, by, search);
    const each = await Promise.all(SEARCH_FIELDS.map((field) => this.searching(accountId, field, search)));
    if (this.engine === 'postgres' || [...search].length >= TRIGRAM)
      return sql<SqlBool>`(${sql.join(
        each.map((e) => sql`(${e})`),
        sql` or `,
      )})`;
    // SQLite reads an OR of prefix terms on the account's rows one by one: a union of the three
    // searches, each through its own prefix index under the account, gives it the ids instead.
    // Not for longer searches: a phrase in most links would make a union of nearly all of them.
    const ids = each.map((e) => sql`select id from links where account_id = ${accountId} and (${e})`);
    return sql<SqlBool>`${sql.ref('links.id')} in (${sql.join(ids, sql` union `)})`;
  }

  /**
   * The search of api.md §5, through an index where one helps: three characters or more are a
   * case-insensitive substring (migration 0009, docs/adr/0026), fewer a case-insensitive prefix
   * (`prefixed`, migrations 0017 and 0018). PostgreSQL's pg_trgm indexes serve the substring word
   * by word (`containing`).
   *
   * On SQLite the FTS5 trigram table narrows the links to those holding the search as a phrase
   * of trigrams of `lower(col)` (a substring, with case folded once more by FTS5 on both sides),
   * and the `like` decides: the same rows as the scan. That pays while the phrase is rare; a
   * phrase in most links (`example.com`) costs FTS5 more than reading the account's links, so
   * a bounded probe of the index decides which way to go. A search with a NUL scans, which an
   * FTS5 query would cut short.
   */
  private async searching(accountId: number, by: LinkSearchField, search: string): Promise<Expression<SqlBool>> {
    if ([...search].length < TRIGRAM) return this.prefixed(accountId, by, search);
    const exact = containsIgnoringCase(by, search);
    const term = search.toLowerCase();
    if (this.engine === 'postgres') return this.containing(by, term, exact);
    if (term.includes('\0')) return this.scanning(by, search, exact, `%${likeLiteral(search)}%`);
    // A phrase in double quotes is taken literally (`"` doubled); %, _ and \ are plain characters in it.
    const phrase = `{${by}} : "${term.replaceAll('"', '""')}"`;
    const probe = await sql<{
      found: number;
    }>`select count(*) as found from (select rowid from link_search where link_search match ${phrase} limit ${RARE_PHRASE})`.execute(this.db);
    if ((probe.rows[0]?.found ?? 0) >= RARE_PHRASE) return this.scanning(by, search, exact, `%${likeLiteral(search)}%`);
    return sql<SqlBool>`${sql.ref('links.id')} in (select rowid from link_search where link_search match ${phrase}) and ${exact}`;
  }

  /**
   * PostgreSQL's substring search (`term` lowered). pg_trgm's GIN index reads the posting list of
   * every trigram it draws from a `like` pattern, and a trigram in most links (`itl` where every
   * title reads `Title n`) costs far more than the rare ones save; the pattern also pads each word
   * at its edges inside it (`le `, `  4`), trigrams as common. So the index is given the search's
   * rare words (runs of letters and digits, three or more) as substrings, which a match contains,
   * and the whole search is tested on the rows it hands over with `strpos`, which no index serves:
   * the rows of `exact`. Rare by the planner's own estimate (`explain`, from its statistics of
   * `lower(col)`, gathered for the index): the rarest word, and any estimated in at most
   * COMMON_WORD_FACTOR times as many links. A search of one word, or of none, or whose words are
   * all rare (or all common: `example.com`), is `exact` itself.
   */
  private async containing(by: LinkSearchField, term: string, exact: Expression<SqlBool>): Promise<Expression<SqlBool>> {
    const words = [...new Set(term.split(/[^\p{L}\p{N}]+/u).filter((word) => [...word].length >= TRIGRAM))];
    if (words.length === 0 || (words.length === 1 && words[0] === term)) return exact;
    const column = sql.ref(by);
    const containsWord = (word: string) => sql<SqlBool>`lower(${column}) like ${`%${word}%`}`;
    const estimates = await Promise.all(
      words.map(async (word) => {
        const { rows } = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>`explain (format json)
          select 1 from links where ${containsWord(word)}`.execute(this.db);
        return rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
      }),
    );
    const rarest = Math.min(...estimates);
    const rare = words.filter((_, i) => estimates[i]! <= rarest * COMMON_WORD_FACTOR);
    // Nothing left out: the one `like`, which lowers each row's column once rather than per word.
    if (rare.length === words.length) return exact;
    return sql<SqlBool>`${sql.join(rare.map(containsWord), sql` and `)} and strpos(lower(${column}), ${term}) > 0`;
  }

  /**
   * One or two characters: the links whose column starts with the search, ignoring case, through
   * the prefix indexes (migrations 0017, 0018), which hold each link's first two characters.
   *
   * PostgreSQL: the key is `left(lower(col), 2)` under "C", in which a string's extensions sort
   * between it and its last code point's successor; the search, lowered, has one or more code
   * points (`İ` lowers to two), and the key holds its first two. SQLite: the key is built from
   * built-in functions (see the migrations) and folds ASCII only, so only a search that lowers to
   * ASCII goes through it; any other reads the account's links, as does a search with a NUL (or
   * a lone surrogate, which PostgreSQL would receive as U+FFFD).
   *
   * For a search that lowers to two code points or fewer the key is the whole test (on SQLite
   * for a search in ASCII, since migration 0018), so a count reads the index alone; a `like`
   * beside it would make the database read every match's row. A longer lowering (`İİ`) is
   * narrowed by the key and decided by the `like`.
   *
   * A two-character search is one key: its links come off the index in id order (PostgreSQL's
   * index ends in `id`, SQLite's in the rowid). A one-character one is a range of keys whose links
   * must be sorted for a page; when the range is common (`https` in URLs), walking the account's
   * links by id and stopping after the page costs far less. PostgreSQL's planner sees that from
   * its statistics; SQLite has none, so a bounded count of the range decides, as for FTS5.
   */
  private async prefixed(accountId: number, by: LinkSearchField, search: string): Promise<Expression<SqlBool>> {
    const exact = startsWithIgnoringCase(by, search);
    const term = search.toLowerCase();
    const decided = this.scanning(by, search, exact, `${likeLiteral(search)}%`);
    if (term.includes('\0') || /\p{Cs}/u.test(term)) return decided;
    // eslint-disable-next-line no-control-regex -- ASCII is the point
    if (this.engine === 'sqlite' && !/^[\x00-\x7f]*$/.test(term)) return decided;
    const key = prefixKey(this.engine, by);
    const points = [...term].slice(0, 2);
    const keyDecides = [...term].length <= 2;
    if (points.length === 2) return keyDecides ? sql<SqlBool>`${key} = ${points.join('')}` : sql<SqlBool>`${key} = ${points.join('')} and ${decided}`;
    const after = successor(points[0]!);
    const range = after === null ? sql<SqlBool>`${key} >= ${points[0]}` : sql<SqlBool>`${key} >= ${points[0]} and ${key} < ${after}`;
    if (this.engine === 'sqlite') {
      const probe = await this.db
        .selectFrom(this.db.selectFrom('links').select(sql.lit(1).as('one')).where('account_id', '=', accountId).where(range).limit(COMMON_PREFIX).as('prefixed'))
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirst()
        .then(countOf);
      if (probe >= COMMON_PREFIX) return decided;
    }
    return keyDecides ? range : sql<SqlBool>`${range} and ${decided}`;
  }

  /**
   * The match read link by link. On SQLite `lower()` is JavaScript's (connect.ts), a call out of
   * SQLite per row; for a search in ASCII, SQLite's own `like` (which ignores the case of ASCII
   * letters) answers a link whose column is ASCII too, and only the others need the call. A match
   * by SQLite's `like` is one by `lower()`, so the first test can only add speed. `pattern` is
   * the `like` pattern of the search as given (not lowered): `exact`'s, for SQLite's own `like`.
   */
  private scanning(by: LinkSearchField, search: string, exact: Expression<SqlBool>, pattern: string): Expression<SqlBool> {
    // eslint-disable-next-line no-control-regex -- ASCII is the point
    if (this.engine !== 'sqlite' || !/^[\x00-\x7f]*$/.test(search)) return exact;
    const column = sql.ref(by);
    return sql<SqlBool>`(${column} like ${pattern} escape '\\' or (length(${column}) <> octet_length(${column}) and ${exact}))`;
  }

  private async withPixels(rows: Selectable<LinksTable>[]): Promise<Link[]> {
    const pixels = await this.pixelIdsOf(rows.map((r) => r.id));
    return rows.map((r) => toLink(r, pixels.get(r.id) ?? []));
  }

  private async pixelIdsOf(linkIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (linkIds.length === 0) return map;
    const rows = await this.db.selectFrom('link_pixels').select(['link_id', 'pixel_id']).where('link_id', 'in', linkIds).orderBy('pixel_id').execute();
    for (const r of rows) (map.get(r.link_id) ?? map.set(r.link_id, []).get(r.link_id)!).push(r.pixel_id);
    return map;
  }

  private translate(error: unknown): unknown {
    // Two requests raced for one alias: the index decides, the client hears the usual answer.
    return isUniqueViolation(error) ? ValidationError.of('alias', messages.taken('alias')) : error;
  }
}
