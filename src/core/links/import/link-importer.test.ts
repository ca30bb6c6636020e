import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IMPORT_BATCH, IMPORT_BATCH_CHARS, LinkImporter, REPORT_ROWS, batchesOf } from './link-importer.ts';
import type { ImportOptions, ImportOutcome, ImportRow } from './import-row.ts';
import { checkImportRow } from './check-import-row.ts';
import { UrlPolicy } from '../url-policy.ts';
import type { RedirectInvalidation } from '../../redirect/redirect-events.ts';
import type { UnitOfWork } from '../../shared/unit-of-work.ts';
import type { LinkChangePorts } from '../links-service.ts';
import {
  MemoryDomainStore,
  MemoryLinkStore,
  MemoryPixelStore,
  MemorySpaceStore,
  RecordingListener,
} from '../../../../test/support/fakes/link-fakes.ts';
import { TEST_ACTOR } from '../../../../test/support/audit-actor.ts';

const ME = 1;
const OTHER = 2;
const NOW = Date.parse('2026-11-25T12:00:00Z');

function setup(unitOfWork?: UnitOfWork<LinkChangePorts>) {
  const links = new MemoryLinkStore();
  const spaces = new MemorySpaceStore();
  const domains = new MemoryDomainStore();
  const pixels = new MemoryPixelStore();
  const events = new RecordingListener();
  const invalidated: number[] = [];
  const urls = new UrlPolicy(['http', 'https']);
  const invalidation = { linkChanged: (id: number) => invalidated.push(id) } as unknown as RedirectInvalidation;
  const importer = new LinkImporter({
    links,
    spaces,
    domains,
    pixels,
    clock: { now: () => NOW },
    urls,
    invalidation,
    onEvent: events,
    ...(unitOfWork ? { unitOfWork } : {}),
  });
  // Every row's outcome as `rows`; what the report lists as `listed`.
  const run = async (rows: ImportRow[], options: Partial<ImportOptions> = {}) => {
    const checked = rows.map((r) =>
      checkImportRow(r, {
        urls,
        timeZone: 'UTC',
        strict: options.strict ?? false,
        defaultPrivacy: importer.defaultPrivacy,
      }),
    );
    const all: ImportOutcome[] = [];
    const report = await importer.run(ME, batchesOf(toAsync(checked)), {
      onConflict: 'skip',
      dryRun: false,
      actor: TEST_ACTOR,
      ...options,
      onOutcome: (o) => all.push(o),
    });
    return { ...report, listed: report.rows, rows: all.sort((a, b) => a.line - b.line) };
  };
  return { links, spaces, domains, pixels, events, invalidated, run };
}

async function* toAsync<T>(rows: T[]): AsyncGenerator<T> {
  for (const row of rows) yield row;
}

const row = (line: number, url: string, alias?: string, more: Partial<ImportRow> = {}): ImportRow => ({
  line,
  input: { url, ...(alias === undefined ? {} : { alias }) },
  ...more,
});

const statuses = (report: { rows: Array<{ status: string; alias?: string }> }) =>
  report.rows.map((r) => [r.status, r.alias]);

test('rows are created under the create rules, with their space by name; each created link is told once as link.created', async () => {
  const s = setup();
  const report = await s.run([
    row(2, 'https://example.com/a', 'imp-a', { spaceName: 'Campaign' }),
    row(3, 'https://example.com/b'),
  ]);
  assert.deepEqual(report.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 0 });
  assert.equal(report.rows[1]!.alias!.length, 7, 'a row without an alias gets a random one');
  assert.deepEqual(
    s.links.links.map((l) => [l.accountId, l.url, l.spaceId]),
    [
      [ME, 'https://example.com/a', 1],
      [ME, 'https://example.com/b', null],
    ],
  );
  assert.deepEqual(
    s.spaces.spaces.map((x) => x.name),
    ['Campaign'],
  );
  assert.deepEqual(
    report.rows.map((r) => r.id),
    [1, 2],
  );
  assert.deepEqual(s.invalidated, [1, 2]);
  assert.deepEqual(s.events.flat(), [
    ['link.created', 'imp-a'],
    ['link.created', report.rows[1]!.alias!],
  ]);
  assert.equal(s.events.told.length, 1, 'one call for the batch');
  assert.equal(s.events.told[0]!.links[0]!.view!.space!.name, 'Campaign', 'told with its view');
});

test('skip (the default): an alias the account has, another account has, or the file had earlier is skipped and nothing is written for it', async () => {
  const s = setup();
  s.links.add(ME, { alias: 'mine' });
  s.links.add(OTHER, { alias: 'theirs' });
  const report = await s.run([
    row(2, 'https://example.com/1', 'mine'),
    row(3, 'https://example.com/2', 'THEIRS'),
    row(4, 'https://example.com/3', 'twice'),
    row(5, 'https://example.com/4', 'Twice'),
  ]);
  assert.deepEqual(statuses(report), [
    ['skipped', 'mine'],
    ['skipped', 'THEIRS'],
    ['created', 'twice'],
    ['skipped', 'Twice'],
  ]);
  assert.deepEqual(
    report.rows.map((r) => r.reason),
    ['The alias exists.', 'The alias is taken on this service.', undefined, 'The alias appears earlier in the file.'],
  );
  assert.deepEqual(s.links.writes, ['insert 1']);
  assert.deepEqual(s.events.flat(), [['link.created', 'twice']]);
});

test('rename: a taken alias takes the first free numbered variant, told as link.created', async () => {
  const s = setup();
  s.links.add(ME, { alias: 'promo' });
  s.links.add(OTHER, { alias: 'promo-2' });
  s.links.add(OTHER, { alias: 'sale' });
  const report = await s.run(
    [
      row(2, 'https://example.com/1', 'promo'),
      row(3, 'https://example.com/2', 'sale'),
      row(4, 'https://example.com/3', 'promo'),
    ],
    {
      onConflict: 'rename',
    },
  );
  assert.deepEqual(statuses(report), [
    ['renamed', 'promo-3'],
    ['renamed', 'sale-2'],
    ['renamed', 'promo-4'],
  ]);
  assert.equal(report.rows[0]!.reason, 'The alias promo exists.');
  assert.deepEqual(
    s.links.links.filter((l) => l.accountId === ME).map((l) => l.alias),
    ['promo', 'promo-3', 'sale-2', 'promo-4'],
  );
  assert.deepEqual(
    s.events.flat().map(([change]) => change),
    ['link.created', 'link.created', 'link.created'],
  );
});

test('replace: the account’s own link is overwritten and told as link.updated; another account’s is skipped and untouched', async () => {
  const s = setup();
  const own = s.links.add(ME, { alias: 'own', url: 'https://example.com/old' });
  const foreign = s.links.add(OTHER, { alias: 'foreign', url: 'https://example.com/theirs' });
  const report = await s.run(
    [
      row(2, 'https://example.com/new', 'own'),
      row(3, 'https://example.com/new', 'foreign'),
      row(4, 'https://example.com/again', 'own'),
    ],
    {
      onConflict: 'replace',
    },
  );
  assert.deepEqual(statuses(report), [
    ['replaced', 'own'],
    ['skipped', 'foreign'],
    ['skipped', 'own'],
  ]);
  assert.equal(report.rows[0]!.id, own.id);
  assert.equal(s.links.links[0]!.url, 'https://example.com/new', 'the first row of the alias wins');
  assert.equal(s.links.links[1]!.url, foreign.url);
  assert.deepEqual(s.links.writes, [`update ${own.id}`]);
  assert.deepEqual(s.events.flat(), [['link.updated', 'own']]);
  assert.equal(s.events.told[0]!.links[0]!.link.url, 'https://example.com/new');
});

test('a re-run of the same file creates nothing new and tells nothing', async () => {
  const s = setup();
  const file = [
    row(2, 'https://example.com/a', 'again-a'),
    row(3, 'https://example.com/b', 'again-b'),
    row(4, 'nope', 'again-c'),
  ];
  const first = await s.run(file);
  assert.deepEqual(first.counts, { created: 2, replaced: 0, renamed: 0, skipped: 0, error: 1 });
  const told = s.events.flat().length;
  const second = await s.run(file);
  assert.deepEqual(second.counts, { created: 0, replaced: 0, renamed: 0, skipped: 2, error: 1 });
  assert.equal(s.links.links.length, 2);
  assert.equal(s.events.flat().length, told);
});

test('a bad or unreadable row is reported with its reason and fields; the rows around it are imported', async () => {
  const s = setup();
  const report = await s.run([
    row(2, 'https://example.com/a', 'ok-a'),
    row(3, 'not a url', 'bad-url'),
    { line: 4, input: {}, unreadable: 'Malformed CSV row: too many cells.' },
    row(5, 'https://example.com/d', 'ok-d', { domainName: 'short.example' }),
    row(6, 'https://example.com/e', 'ok-e', { pixelNames: ['Nope'] }),
  ]);
  assert.deepEqual(
    report.rows.map((r) => [r.line, r.status]),
    [
      [2, 'created'],
      [3, 'error'],
      [4, 'error'],
      [5, 'error'],
      [6, 'created'],
    ],
  );
  assert.deepEqual(Object.keys(report.rows[1]!.errors!), ['url']);
  assert.equal(report.rows[2]!.reason, 'Malformed CSV row: too many cells.');
  assert.match(report.rows[3]!.reason!, /^domain: The domain short\.example is not one of this account's domains\./);
  assert.deepEqual(report.rows[4]!.notes, ["The pixel Nope is not one of this account's pixels: left out."]);
  assert.deepEqual(
    s.links.links.map((l) => l.alias),
    ['ok-a', 'ok-e'],
  );
});

test('a dry run reports what would happen and writes nothing: no link, no space, no replace, no event', async () => {
  const s = setup();
  s.links.add(ME, { alias: 'own' });
  const rows = [
    row(2, 'https://example.com/a', 'dry-a', { spaceName: 'New space' }),
    row(3, 'https://example.com/b', 'own'),
    row(4, 'nope'),
  ];
  const dry = await s.run(rows, { dryRun: true, onConflict: 'replace' });
  assert.equal(dry.dry_run, true);
  assert.deepEqual(dry.counts, { created: 1, replaced: 1, renamed: 0, skipped: 0, error: 1 });
  assert.deepEqual(
    dry.rows.map((r) => r.id ?? null),
    [null, null, null],
  );
  assert.deepEqual(s.links.writes, []);
  assert.equal(s.links.links.length, 1);
  assert.deepEqual(s.spaces.spaces, []);
  assert.deepEqual(s.events.told, []);
  assert.deepEqual(s.invalidated, []);
  const real = await s.run(rows, { onConflict: 'replace' });
  assert.deepEqual(real.counts, dry.counts, 'the dry run foretold it');
});

test('an alias another writer takes while the batch is written skips that row only', async () => {
  const s = setup();
  s.links.takenMeanwhile.push({ accountId: OTHER, alias: 'race-b' });
  const report = await s.run([
    row(2, 'https://example.com/a', 'race-a'),
    row(3, 'https://example.com/b', 'race-b'),
    row(4, 'https://example.com/c', 'race-c'),
  ]);
  assert.deepEqual(statuses(report), [
    ['created', 'race-a'],
    ['skipped', 'race-b'],
    ['created', 'race-c'],
  ]);
  assert.equal(report.rows[1]!.reason, 'The alias was taken while importing.');
  assert.deepEqual(s.events.flat(), [
    ['link.created', 'race-a'],
    ['link.created', 'race-c'],
  ]);
});

test('no one listening: links are written, and their views are not read for nothing', async () => {
  const s = setup();
  s.events.listening = false;
  const report = await s.run([row(2, 'https://example.com/a', 'quiet')]);
  assert.equal(report.counts.created, 1);
  assert.deepEqual(s.events.told, []);
  assert.equal(s.links.reads, 0);
});

test('each batch is written and told in one unit of work, the redirect told after it; a failed telling fails the import; a dry run takes none', async () => {
  const units: Array<{ toldInside: number; invalidatedInside: number }> = [];
  const unitOfWork: UnitOfWork<LinkChangePorts> = async (work) => {
    const result = await work({
      links: s.links,
      spaces: s.spaces,
      domains: s.domains,
      pixels: s.pixels,
      onEvent: s.events,
    });
    units.push({ toldInside: s.events.told.length, invalidatedInside: s.invalidated.length });
    return result;
  };
  const s = setup(unitOfWork);
  await s.run([row(2, 'https://example.com/1', 'unit-1'), row(3, 'https://example.com/2', 'unit-2')]);
  assert.deepEqual(
    units,
    [{ toldInside: 1, invalidatedInside: 0 }],
    'told inside the unit, invalidated once it is done',
  );
  assert.deepEqual(s.invalidated, [1, 2]);

  await s.run([row(2, 'https://example.com/3', 'unit-3')], { dryRun: true });
  assert.equal(units.length, 1, 'a dry run writes nothing: no unit');

  s.events.changed = async () => {
    throw new Error('the outbox is failing');
  };
  await assert.rejects(s.run([row(2, 'https://example.com/4', 'unit-4')]), /the outbox is failing/);
  assert.deepEqual(s.invalidated, [1, 2], 'nothing invalidated for a batch whose unit failed');
});

test('a new space is made in the batch’s unit: a batch that fails leaves none, and the next run makes it', async () => {
  // The fake unit's writes of spaces land in a store of its own, kept only when the work succeeds.
  let failing = true;
  const unitOfWork: UnitOfWork<LinkChangePorts> = async (work) => {
    const unitSpaces = new MemorySpaceStore();
    unitSpaces.spaces.push(...s.spaces.spaces);
    const result = await work({
      links: s.links,
      spaces: unitSpaces,
      domains: s.domains,
      pixels: s.pixels,
      onEvent: s.events,
    });
    if (failing) throw new Error('the unit failed');
    s.spaces.spaces.splice(0, s.spaces.spaces.length, ...unitSpaces.spaces);
    return result;
  };
  const s = setup(unitOfWork);
  const rows = [
    row(2, 'https://example.com/a', 'space-a', { spaceName: 'Launch' }),
    row(3, 'https://example.com/b', 'space-b', { spaceName: 'Launch' }),
  ];
  await assert.rejects(s.run(rows), /the unit failed/);
  assert.equal(s.spaces.spaces.length, 0, 'no space left by the failed batch');

  failing = false;
  // (The fake unit keeps the failed batch's links: new aliases.)
  await s.run([
    row(2, 'https://example.com/c', 'space-c', { spaceName: 'Launch' }),
    row(3, 'https://example.com/d', 'space-d', { spaceName: 'Launch' }),
  ]);
  assert.deepEqual(
    s.spaces.spaces.map((x) => x.name),
    ['Launch'],
    'made once, in the unit',
  );
  const launch = s.spaces.spaces[0]!.id;
  assert.deepEqual(
    s.links.links.filter((l) => l.alias === 'space-c' || l.alias === 'space-d').map((l) => [l.alias, l.spaceId]),
    [
      ['space-c', launch],
      ['space-d', launch],
    ],
  );
});

test('a space named only by rows that are skipped is not made', async () => {
  const s = setup();
  await s.run([row(2, 'https://example.com/a', 'taken')]);
  await s.run([row(2, 'https://example.com/a', 'taken', { spaceName: 'Never' })]);
  assert.deepEqual(s.spaces.spaces, []);
});

test('the report lists only what was not imported as the file says, with the counts of every row', async () => {
  const s = setup();
  s.links.add(OTHER, { alias: 'taken' });
  const report = await s.run([
    row(2, 'https://example.com/a', 'fine'),
    row(3, 'https://example.com/b'),
    row(4, 'https://example.com/c', 'taken'),
    row(5, 'nope', 'bad'),
  ]);
  assert.deepEqual(report.counts, { created: 2, replaced: 0, renamed: 0, skipped: 1, error: 1 });
  assert.equal(report.random_aliases, 1);
  assert.deepEqual(
    report.listed.map((r) => [r.line, r.status]),
    [
      [3, 'created'],
      [4, 'skipped'],
      [5, 'error'],
    ],
    'a plain created row is only counted',
  );
  assert.deepEqual(report.listed[0]!.notes, ['The row has no alias: a random one was given.']);
  assert.equal(report.rows_omitted, 0);
});

test('strict: a row without an alias is an error, not a random alias; the others are imported', async () => {
  const s = setup();
  const report = await s.run(
    [
      row(2, 'https://example.com/a', 'strict-a'),
      row(3, 'https://example.com/b'),
      row(4, 'https://example.com/c', '  '),
    ],
    { strict: true },
  );
  assert.deepEqual(report.counts, { created: 1, replaced: 0, renamed: 0, skipped: 0, error: 2 });
  assert.deepEqual(report.listed[0]!.errors, {
    alias: ['The row has no alias; a strict import gives none at random.'],
  });
  assert.equal(report.random_aliases, 0);
  assert.deepEqual(
    s.links.links.map((l) => l.alias),
    ['strict-a'],
  );
});

test('the listed rows stop at REPORT_ROWS; the rest are counted', async () => {
  const s = setup();
  const rows = Array.from({ length: REPORT_ROWS + 3 }, (_, i) => row(i + 2, 'not a url', `cap-${i}`));
  const report = await s.run(rows, { dryRun: true });
  assert.equal(report.counts.error, REPORT_ROWS + 3);
  assert.equal(report.listed.length, REPORT_ROWS);
  assert.equal(report.rows_omitted, 3);
  assert.equal(report.listed.at(-1)!.line, REPORT_ROWS + 1, 'the first rows of the file are the ones listed');
});

test('batches: at most IMPORT_BATCH rows, fewer when they are long (IMPORT_BATCH_CHARS)', async () => {
  const urls = new UrlPolicy(['https']);
  const checked = (n: number, length: number) =>
    Array.from({ length: n }, (_, i) =>
      checkImportRow(row(i + 2, `https://example.com/${'a'.repeat(length)}`, `b-${i}`), {
        urls,
        timeZone: 'UTC',
        strict: false,
        defaultPrivacy: 1,
      }),
    );
  const sizes = async (rows: ReturnType<typeof checked>) => {
    const out: number[] = [];
    for await (const batch of batchesOf(toAsync(rows))) out.push(batch.length);
    return out;
  };
  assert.deepEqual(await sizes(checked(IMPORT_BATCH * 2 + 5, 10)), [IMPORT_BATCH, IMPORT_BATCH, 5]);
  const long = await sizes(checked(40, 2000));
  assert.ok(long.length >= 5 && long.every((n) => n <= IMPORT_BATCH_CHARS / 2000), `long rows: ${long.join(', ')}`);
});
