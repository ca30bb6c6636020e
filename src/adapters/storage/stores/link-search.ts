import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { LinkSearchField, LinkSearchScope } from '../../../core/links/link.ts';
import type { Engine } from '../connect.ts';
import type { Database } from '../schema.ts';
import { containsIgnoringCase, countOf, likeLiteral, startsWithIgnoringCase } from '../sql-helpers.ts';

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

/**
 * The list's search (api.md §5) as a condition on `links`, planned for the indexes each engine has
 * (docs/design/links.md).
 */
export class LinkSearch {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  /**
   * `any`: a link matches when one of its three columns does, each through its own index as
   * below, so the database unites three index reads (PostgreSQL's BitmapOr of an OR; on SQLite a
   * union of ids) rather than reading the account's links.
   */
  async condition(accountId: number, by: LinkSearchScope, search: string): Promise<Expression<SqlBool>> {
    if (by !== 'any') return this.searching(accountId, by, search);
    if (this.engine === 'sqlite' && [...search].length >= TRIGRAM) return this.anywhere(search);
    if (this.engine === 'postgres' && [...search].length < TRIGRAM) return this.startingAnywhere(accountId, search);
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
   * PostgreSQL, any column, one or two characters: the columns none of the account's links
   * starts with are left out, after a probe of each prefix index (a few pages each; in the key's
   * order, so that the planner reads the index rather than walking the table to a first match
   * that may lie at its end). An OR of the three keys is no index's order: a page in id order
   * walked the account's links from the newest and tested each against all three, tens of
   * thousands of rows when the matches lie further back. Most short searches start aliases only,
   * and one key alone is read off its index in id order: a page and a bounded count from a few
   * pages. With no column left the alias's test stays, which its index answers with nothing. The
   * same links as the OR: a column left out has no link to add.
   */
  private async startingAnywhere(accountId: number, search: string): Promise<Expression<SqlBool>> {
    const each = await Promise.all(SEARCH_FIELDS.map((field) => this.prefixed(accountId, field, search)));
    const probes = each.map(
      (e, i) =>
        sql`(select 1 from links where account_id = ${accountId} and (${e}) order by ${prefixKey(this.engine, SEARCH_FIELDS[i]!)}, id limit 1) as ${sql.id(`f${i}`)}`,
    );
    const { rows } = await sql<Record<string, number | null>>`select ${sql.join(probes)}`.execute(this.db);
    const found = each.filter((_, i) => rows[0]?.[`f${i}`] != null);
    if (found.length <= 1) return found[0] ?? each[0]!;
    return sql<SqlBool>`(${sql.join(
      found.map((e) => sql`(${e})`),
      sql` or `,
    )})`;
  }

  /**
   * SQLite, any column, three characters or more: one probe and one FTS5 read of the phrase in
   * every column at once, the three `like`s deciding. FTS5's trigram lists hold every column, so
   * a column filter (`{alias} : "…"`) narrows the answer, not the reading: per column, a phrase
   * common in URLs (`example.com`) was read whole three times over, and in full for the alias and
   * the title, where no match came to stop the bounded probe (docs/design/links.md).
   */
  private async anywhere(search: string): Promise<Expression<SqlBool>> {
    const term = search.toLowerCase();
    const exact = SEARCH_FIELDS.map((field) => ({ field, exact: containsIgnoringCase(field, search) }));
    const anyOf = (each: Array<Expression<SqlBool>>) => sql<SqlBool>`(${sql.join(each, sql` or `)})`;
    const scanned = anyOf(
      exact.map(({ field, exact: e }) => this.scanning(field, search, e, `%${likeLiteral(search)}%`)),
    );
    if (term.includes('\0')) return scanned;
    const phrase = `"${term.replaceAll('"', '""')}"`;
    if (await this.common(phrase)) return scanned;
    return sql<SqlBool>`${sql.ref('links.id')} in (select rowid from link_search where link_search match ${phrase}) and ${anyOf(exact.map((e) => e.exact))}`;
  }

  /** Whether an FTS5 query matches at least RARE_PHRASE links (of every account): a bounded walk of its index. */
  private async common(query: string): Promise<boolean> {
    const probe = await sql<{
      found: number;
    }>`select count(*) as found from (select rowid from link_search where link_search match ${query} limit ${RARE_PHRASE})`.execute(
      this.db,
    );
    return (probe.rows[0]?.found ?? 0) >= RARE_PHRASE;
  }

  /**
   * The search of api.md §5, through an index where one helps: three characters or more are a
   * case-insensitive substring (migration 0009, docs/design/links.md), fewer a case-insensitive prefix
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
    if (await this.common(phrase)) return this.scanning(by, search, exact, `%${likeLiteral(search)}%`);
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
  private async containing(
    by: LinkSearchField,
    term: string,
    exact: Expression<SqlBool>,
  ): Promise<Expression<SqlBool>> {
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
    if (points.length === 2)
      return keyDecides
        ? sql<SqlBool>`${key} = ${points.join('')}`
        : sql<SqlBool>`${key} = ${points.join('')} and ${decided}`;
    const after = successor(points[0]!);
    const range =
      after === null
        ? sql<SqlBool>`${key} >= ${points[0]}`
        : sql<SqlBool>`${key} >= ${points[0]} and ${key} < ${after}`;
    if (this.engine === 'sqlite') {
      const probe = await this.db
        .selectFrom(
          this.db
            .selectFrom('links')
            .select(sql.lit(1).as('one'))
            .where('account_id', '=', accountId)
            .where(range)
            .limit(COMMON_PREFIX)
            .as('prefixed'),
        )
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
  private scanning(
    by: LinkSearchField,
    search: string,
    exact: Expression<SqlBool>,
    pattern: string,
  ): Expression<SqlBool> {
    // eslint-disable-next-line no-control-regex -- ASCII is the point
    if (this.engine !== 'sqlite' || !/^[\x00-\x7f]*$/.test(search)) return exact;
    const column = sql.ref(by);
    return sql<SqlBool>`(${column} like ${pattern} escape '\\' or (length(${column}) <> octet_length(${column}) and ${exact}))`;
  }
}
