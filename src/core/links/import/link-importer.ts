import { PRIVATE_STATS, newLinkFields, type DefaultStatsPrivacy } from '../new-link-fields.ts';
import { FieldErrorBag, ValidationError, type FieldErrors } from '../../shared/errors.ts';
import { hashPassword } from '../../shared/secrets.ts';
import { isReservedAlias, randomAlias } from '../aliases.ts';
import type { Link, LinkFields } from '../link.ts';
import type { LinkChange } from '../link-events.ts';
import { LinkViews } from '../link-views.ts';
import { tagLinks, type LinkChangePorts, type LinksServiceDeps } from '../links-service.ts';
import type { AliasOwner } from '../link-store.ts';
import { faultsOf } from './check-import-row.ts';
import type { CheckedRow, ImportOptions, ImportOutcome, ImportReport } from './import-row.ts';
import { NamedRecords } from './named-records.ts';
import type { AuditActor } from '../../audit/audit-entry.ts';
import { auditLinks, recordsChanges } from '../link-audit.ts';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.ts';

/**
 * The most rows a batch holds: one multi-row insert and one transaction each. A batch holds fewer
 * when its rows are long (IMPORT_BATCH_CHARS): what a write costs (SQLite's search index above all)
 * grows with the text written, and on SQLite's synchronous connection a batch holds the event
 * loop while it is written.
 */
export const IMPORT_BATCH = 25;
/** The most characters of link data (URLs, titles, targets) a batch carries, whatever its row count. */
export const IMPORT_BATCH_CHARS = 8192;
/** What a row weighs in a batch: the characters of its link data (an unreadable row or one in error writes nothing). */
const charsOf = (row: CheckedRow) => (row.checked ? JSON.stringify(row.checked.fields).length : 0);

/** Rows in batches of at most IMPORT_BATCH rows and, but for a single long row, IMPORT_BATCH_CHARS characters. */
export async function* batchesOf(rows: AsyncIterable<CheckedRow>): AsyncGenerator<CheckedRow[]> {
  let batch: CheckedRow[] = [];
  let chars = 0;
  for await (const row of rows) {
    const weight = charsOf(row);
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH || chars + weight > IMPORT_BATCH_CHARS)) {
      yield batch;
      batch = [];
      chars = 0;
    }
    batch.push(row);
    chars += weight;
  }
  if (batch.length > 0) yield batch;
}

const ALIAS_LENGTH = 7;
/** The most rows a report lists; past it they are counted (rows_omitted). */
export const REPORT_ROWS = 10_000;
const RANDOM_ALIAS_NOTE = 'The row has no alias: a random one was given.';
const RENAME_TRIES = 20;

interface Ready {
  row: CheckedRow;
  fields: LinkFields;
  pixelIds: number[];
  notes: string[];
  /** A space the account does not have yet, made in the batch's unit when the link is written. */
  newSpace?: string;
}

const reasonOf = (errors: FieldErrors) =>
  Object.entries(errors)
    .map(([field, list]) => `${field}: ${list.join(' ')}`)
    .join('; ');

const notesOf = (item: Ready) => (item.notes.length > 0 ? { notes: item.notes } : {});

const keyOf = (domainId: number | null, alias: string) => `${domainId ?? ''}/${alias.toLowerCase()}`;

/** One batch's write in its unit: what it decided of each row so far, and what it wrote. */
interface BatchWrite {
  tx: LinkChangePorts;
  accountId: number;
  named: NamedRecords;
  claimed: Set<string>;
  options: ImportOptions;
  /** Each link written, for the redirect to forget once the unit has committed. */
  changed: Array<{ id: number; alias: string }>;
  out: ImportOutcome[];
  /** Each row to insert gets its outcome once the insert has answered with its id. */
  creates: Array<{ item: Ready; outcome: ImportOutcome }>;
  replaced: Link[];
}

/** A row to insert, its outcome waiting for the id. */
function toCreate(w: BatchWrite, item: Ready, status: 'created' | 'renamed', reason?: string): void {
  w.creates.push({
    item,
    outcome: {
      line: item.row.line,
      status,
      alias: item.fields.alias,
      id: null,
      ...(reason ? { reason } : {}),
      ...notesOf(item),
    },
  });
}

/** A link about to be written gets its new space, made in the batch's unit (a dry run makes none). */
async function place(w: BatchWrite, { fields, newSpace }: Ready): Promise<void> {
  if (newSpace !== undefined && !w.options.dryRun) fields.spaceId = await w.named.make(w.tx.spaces, newSpace);
}

/**
 * Links from another shortener's file, a batch at a time, under the create rules of LinksService
 * (the pure rules of link-rules.ts, then references and aliases checked for the whole batch at
 * once). Only the account's own links are ever written; a taken alias is skipped unless the
 * options say otherwise, so running the same file again creates nothing new.
 */
export class LinkImporter {
  private readonly unit: UnitOfWork<LinkChangePorts>;

  /** Formats that carry no privacy (most) leave it to this, as a create without it does. */
  readonly defaultPrivacy: DefaultStatsPrivacy;

  constructor(private readonly deps: Omit<LinksServiceDeps, 'titles'>) {
    this.unit = deps.unitOfWork ?? noUnitOfWork<LinkChangePorts>(deps);
    this.defaultPrivacy = deps.defaultPrivacy ?? PRIVATE_STATS;
  }

  /** Each batch is checked and written in one unit of work: the caller bounds it (batchesOf). */
  async run(
    accountId: number,
    batches: AsyncIterable<readonly CheckedRow[]>,
    options: ImportOptions,
  ): Promise<ImportReport> {
    const named = new NamedRecords(accountId, this.deps, () => this.deps.clock.now());
    const claimed = new Set<string>();
    const report: ImportReport = {
      dry_run: options.dryRun,
      counts: { created: 0, replaced: 0, renamed: 0, skipped: 0, error: 0 },
      random_aliases: 0,
      rows: [],
      rows_omitted: 0,
    };
    // Only what did not go as the file says is listed, and at most REPORT_ROWS of it: a file of a
    // million rows answers with its counts, not a million outcomes.
    const add = (o: ImportOutcome) => {
      options.onOutcome?.(o);
      report.counts[o.status]++;
      if (o.status === 'created' && o.notes === undefined) return;
      if (report.rows.length < REPORT_ROWS) report.rows.push(o);
      else report.rows_omitted++;
    };
    let seen = 0;
    for await (const batch of batches) {
      const outcomes = await this.batch(accountId, batch, named, claimed, options);
      for (const o of outcomes.sort((a, b) => a.line - b.line)) {
        if (o.status === 'created' && o.notes?.includes(RANDOM_ALIAS_NOTE)) report.random_aliases++;
        add(o);
      }
      seen += batch.length;
      options.onProgress?.(seen);
    }
    report.rows.sort((a, b) => a.line - b.line);
    return report;
  }

  private async batch(
    accountId: number,
    rows: readonly CheckedRow[],
    named: NamedRecords,
    claimed: Set<string>,
    options: ImportOptions,
  ) {
    const out: ImportOutcome[] = [];
    const ready: Ready[] = [];
    for (const row of rows) {
      const r = await this.prepare(row, named);
      if ('reason' in r)
        out.push({ line: row.line, status: 'error', reason: r.reason, ...(r.errors ? { errors: r.errors } : {}) });
      else ready.push(r);
    }
    // The batch's links and their events are one unit (a dry run writes nothing); the redirect
    // forgets the links once they are committed.
    const changed: Array<{ id: number; alias: string }> = [];
    const write = (tx: LinkChangePorts) => this.write(tx, accountId, ready, named, claimed, options, changed);
    try {
      out.push(...(await (options.dryRun ? write(this.deps) : this.unit(write))));
    } catch (error) {
      named.dropped();
      throw error;
    }
    named.kept();
    for (const { id, alias } of changed) this.deps.invalidation?.linkChanged(id, alias);
    return out;
  }

  /** Aliases decided, links written and told; `changed` gets each link written. */
  private async write(
    tx: LinkChangePorts,
    accountId: number,
    ready: Ready[],
    named: NamedRecords,
    claimed: Set<string>,
    options: ImportOptions,
    changed: Array<{ id: number; alias: string }>,
  ) {
    const w: BatchWrite = { tx, accountId, named, claimed, options, changed, out: [], creates: [], replaced: [] };
    const owners = await this.ownersOf(tx, ready);
    for (const item of ready) await this.decide(w, item, owners);
    const created = await this.insertCreates(w);
    const { replaced } = w;
    await this.tell(tx, accountId, 'link.updated', replaced.length, async () => replaced);
    await this.tell(tx, accountId, 'link.created', created.length, () => tx.links.findByIds(accountId, created));
    if (recordsChanges(tx) && created.length > 0) {
      const made = await tx.links.findByIds(accountId, created);
      await auditLinks(
        tx,
        accountId,
        options.actor,
        'link.created',
        made.map((link) => ({ before: null, after: link })),
        this.deps.clock.now(),
      );
    }
    return [...w.out, ...w.creates.map((c) => c.outcome)];
  }

  /** What a row becomes: created (its alias, a random one, or a renamed one), replaced, skipped, or an error. */
  private async decide(w: BatchWrite, item: Ready, owners: Map<string, AliasOwner>): Promise<void> {
    const { tx, claimed, options, accountId } = w;
    const { fields, row } = item;
    if (fields.alias === '') {
      fields.alias = await this.freeAlias(tx, fields.domainId, claimed, '', 0);
      item.notes.push(RANDOM_ALIAS_NOTE);
      toCreate(w, item, 'created');
      return;
    }
    const key = keyOf(fields.domainId, fields.alias);
    const owner = owners.get(key);
    if (!owner && !claimed.has(key)) {
      claimed.add(key);
      toCreate(w, item, 'created');
    } else if (options.onConflict === 'rename') {
      const wanted = fields.alias;
      fields.alias = await this.freeAlias(tx, fields.domainId, claimed, `${wanted}-`, 2);
      if (fields.alias === '')
        w.out.push({
          line: row.line,
          status: 'error',
          alias: wanted,
          reason: 'alias: no free variant of the alias was found.',
        });
      else toCreate(w, item, 'renamed', `The alias ${wanted} exists.`);
    } else if (options.onConflict === 'replace' && owner && owner.accountId === accountId && !claimed.has(key)) {
      claimed.add(key);
      await this.replaceRow(w, item, owner.id);
    } else {
      const why = claimed.has(key)
        ? 'The alias appears earlier in the file.'
        : owner?.accountId === accountId
          ? 'The alias exists.'
          : 'The alias is taken on this service.';
      w.out.push({ line: row.line, status: 'skipped', alias: fields.alias, reason: why, ...notesOf(item) });
    }
  }

  /** A row replacing the account's own link of its alias (a dry run writes nothing and says so). */
  private async replaceRow(w: BatchWrite, item: Ready, id: number): Promise<void> {
    await place(w, item);
    const link = w.options.dryRun ? null : await this.replace(w.tx, w.accountId, id, item, w.options.actor);
    if (link) {
      w.replaced.push(link);
      w.changed.push({ id: link.id, alias: link.alias });
    }
    w.out.push({
      line: item.row.line,
      status: 'replaced',
      alias: item.fields.alias,
      id: link?.id ?? null,
      ...notesOf(item),
    });
  }

  /** The batch's new links written, each outcome given its id and each link its tags; answers the ids written. */
  private async insertCreates(w: BatchWrite): Promise<number[]> {
    const { tx, accountId, creates } = w;
    const created: number[] = [];
    if (w.options.dryRun || creates.length === 0) return created;
    for (const { item } of creates) await place(w, item);
    const ids = await this.insert(tx, accountId, creates);
    for (const [i, c] of creates.entries()) {
      c.outcome.id = ids[i] ?? null;
      if (ids[i] !== undefined) {
        await tagLinks(tx.tags, accountId, [ids[i]], c.item.row.checked?.tagNames, this.deps.clock.now());
        created.push(ids[i]);
        w.changed.push({ id: ids[i], alias: c.item.fields.alias });
      }
    }
    return created;
  }

  /** The batch's links told as the API tells its own changes (webhooks); read only when anyone listens. */
  private async tell(
    tx: LinkChangePorts,
    accountId: number,
    change: LinkChange,
    count: number,
    links: () => Promise<readonly Link[]>,
  ): Promise<void> {
    const listener = tx.onEvent;
    if (!listener || count === 0 || !(await listener.listens(accountId, change))) return;
    const views = await new LinkViews(tx).of(accountId, await links());
    await listener.changed(
      accountId,
      change,
      views.map((view) => ({ link: view.link, view })),
    );
  }

  /**
   * One insert for the batch; when another writer took one of its aliases meanwhile (the unique
   * index refuses the whole statement), row by row, so only that row is skipped.
   */
  private async insert(
    tx: LinkChangePorts,
    accountId: number,
    creates: Array<{ item: Ready; outcome: ImportOutcome }>,
  ): Promise<Array<number | undefined>> {
    const now = this.deps.clock.now();
    try {
      return await tx.links.insertMany(
        accountId,
        creates.map((c) => c.item),
        now,
      );
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
    }
    const ids: Array<number | undefined> = [];
    for (const c of creates) {
      try {
        ids.push((await tx.links.insertMany(accountId, [c.item], now))[0]);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        Object.assign(c.outcome, { status: 'skipped', reason: 'The alias was taken while importing.' });
        ids.push(undefined);
      }
    }
    return ids;
  }

  /** The checks that need the database (named records) on a row the pure rules passed or failed: every bad field of the row, or its fields. */
  private async prepare(
    row: CheckedRow,
    named: NamedRecords,
  ): Promise<Ready | { errors?: FieldErrors; reason: string }> {
    if (row.unreadable !== undefined) return { reason: row.unreadable };
    const bag = new FieldErrorBag();
    for (const [field, list] of Object.entries(row.errors ?? {})) for (const message of list) bag.add(field, message);
    const notes = [...(row.notes ?? [])];
    let domainId: number | null = null;
    if (row.domainName) {
      domainId = await named.domain(row.domainName);
      if (domainId === null) bag.add('domain', `The domain ${row.domainName} is not one of this account's domains.`);
    }
    let spaceId: number | null = null;
    let newSpace: string | undefined;
    if (row.spaceName) {
      const space = await named.space(row.spaceName);
      if (space === null) bag.add('space', `The space name ${row.spaceName} is too long.`);
      else if (space === 'new') newSpace = row.spaceName;
      else spaceId = space;
    }
    const pixelIds: number[] = [];
    for (const name of row.pixelNames ?? []) {
      const id = await named.pixel(name);
      if (id === null) notes.push(`The pixel ${name} is not one of this account's pixels: left out.`);
      else if (!pixelIds.includes(id)) pixelIds.push(id);
    }
    const checked = row.checked;
    if (!bag.empty || checked === undefined) {
      const errors = faultsOf(bag);
      return { errors, reason: reasonOf(errors) };
    }
    const fields: LinkFields = { ...newLinkFields(domainId, spaceId, this.defaultPrivacy), ...checked.fields };
    if (row.endsAt !== undefined) fields.endsAt = row.endsAt;
    if (checked.password) fields.passwordHash = await hashPassword(checked.password);
    if (checked.privacyPassword && fields.privacy === 2)
      fields.privacyPasswordHash = await hashPassword(checked.privacyPassword);
    return {
      row,
      fields,
      pixelIds: [...new Set([...(checked.pixelIds ?? []), ...pixelIds])],
      notes,
      ...(newSpace === undefined ? {} : { newSpace }),
    };
  }

  /** Who holds the batch's aliases, one query per domain. */
  private async ownersOf(tx: LinkChangePorts, ready: Ready[]): Promise<Map<string, AliasOwner>> {
    const byDomain = new Map<number | null, string[]>();
    for (const { fields } of ready)
      if (fields.alias !== '')
        (byDomain.get(fields.domainId) ?? byDomain.set(fields.domainId, []).get(fields.domainId)!).push(
          fields.alias.toLowerCase(),
        );
    const owners = new Map<string, AliasOwner>();
    for (const [domainId, keys] of byDomain) {
      for (const [alias, owner] of await tx.links.aliasOwners(domainId, keys))
        owners.set(keyOf(domainId, alias), owner);
    }
    return owners;
  }

  /** A free alias: random (prefix ''), or the prefix with the first free number from `from`; '' when none is found. */
  private async freeAlias(
    tx: LinkChangePorts,
    domainId: number | null,
    claimed: Set<string>,
    prefix: string,
    from: number,
  ): Promise<string> {
    for (let round = 0; round < 4; round++) {
      const candidates = Array.from({ length: RENAME_TRIES }, (_, i) =>
        prefix === '' ? randomAlias(ALIAS_LENGTH + round) : `${prefix}${from + round * RENAME_TRIES + i}`,
      ).filter((a) => !isReservedAlias(a) && !claimed.has(keyOf(domainId, a)));
      const taken = await tx.links.aliasOwners(
        domainId,
        candidates.map((a) => a.toLowerCase()),
      );
      const free = candidates.find((a) => !taken.has(a.toLowerCase()));
      if (free !== undefined && free.length <= 255) {
        claimed.add(keyOf(domainId, free));
        return free;
      }
    }
    return '';
  }

  private async replace(
    tx: LinkChangePorts,
    accountId: number,
    id: number,
    item: Ready,
    actor: AuditActor,
  ): Promise<Link | null> {
    const before = recordsChanges(tx) ? await tx.links.findById(accountId, id) : null;
    const link = await tx.links.update(accountId, id, item.fields, item.pixelIds, this.deps.clock.now());
    if (link) await tagLinks(tx.tags, accountId, [id], item.row.checked?.tagNames ?? [], this.deps.clock.now());
    // After the tags: the link's version keeps the ones it has now.
    if (link && before)
      await auditLinks(tx, accountId, actor, 'link.updated', [{ before, after: link }], this.deps.clock.now());
    return link;
  }
}
