import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { TagsService } from './tags-service.ts';
import { LinksService } from '../links/links-service.ts';
import { UrlPolicy } from '../links/url-policy.ts';
import { MemoryTagStore } from '../../../test/support/fakes/tag-fakes.ts';
import type { LinkFields } from '../links/link.ts';
import {
  MemoryDomainStore,
  MemoryLinkStore,
  MemoryPixelStore,
  MemorySpaceStore,
} from '../../../test/support/fakes/link-fakes.ts';
import { TEST_ACTOR } from '../../../test/support/audit-actor.ts';

/** The memory link store with the few calls a create, update and read make. */
function memoryLinks() {
  const links = new MemoryLinkStore();
  return Object.assign(links, {
    insert: (accountId: number, fields: LinkFields, _pixelIds: readonly number[], now: number) =>
      Promise.resolve(links.add(accountId, fields, now)),
    findById: (accountId: number, id: number) =>
      Promise.resolve(links.links.find((l) => l.accountId === accountId && l.id === id) ?? null),
    aliasTaken: () => Promise.resolve(false),
  });
}

const ME = 1;
const OTHER = 2;
const clock = { now: () => 1_000 };

function setup() {
  const links = memoryLinks();
  const tags = new MemoryTagStore();
  const service = new LinksService({
    links,
    spaces: new MemorySpaceStore(),
    domains: new MemoryDomainStore(),
    pixels: new MemoryPixelStore(),
    tags,
    clock,
    urls: new UrlPolicy(['http', 'https']),
    titles: null,
  });
  return { service, tags, manage: new TagsService(tags, clock) };
}

test('a link is created and updated with tags by name; new names become tags of the account', async () => {
  const { service, tags } = setup();
  const made = await service.create(
    ME,
    'UTC',
    { url: 'https://example.com/', tags: ['Launch', 'launch', 'Q3'] },
    TEST_ACTOR,
  );
  assert.deepEqual(
    made.tags.map((t) => t.name),
    ['Launch', 'Q3'],
  );
  const kept = await service.update(ME, 'UTC', made.link.id, { title: 'x' }, TEST_ACTOR);
  assert.deepEqual(
    kept.tags.map((t) => t.name),
    ['Launch', 'Q3'],
  );
  const cleared = await service.update(ME, 'UTC', made.link.id, { tags: null }, TEST_ACTOR);
  assert.deepEqual(cleared.tags, []);
  assert.equal(tags.tags.length, 2, 'the tags stay when no link carries them');
});

test('bad names refuse the whole create, naming tags', async () => {
  const { service, tags } = setup();
  await assert.rejects(
    service.create(ME, 'UTC', { url: 'https://example.com/', tags: ['ok', 'x'.repeat(33)] }, TEST_ACTOR),
    (e: unknown) => e instanceof ValidationError && Object.keys(e.fields).join() === 'tags',
  );
  assert.equal(tags.tags.length, 0);
});

test('rename and recolour: a taken name (ignoring case) and a colour off the palette are refused together', async () => {
  const { service, manage } = setup();
  await service.create(ME, 'UTC', { url: 'https://example.com/', tags: ['One', 'Two'] }, TEST_ACTOR);
  const [one] = await manage.list(ME);
  await assert.rejects(
    manage.update(ME, one!.id, { name: 'TWO', color: 'beige' }, TEST_ACTOR),
    (e: unknown) => e instanceof ValidationError && Object.keys(e.fields).sort().join() === 'color,name',
  );
  const renamed = await manage.update(ME, one!.id, { name: 'one', color: 'teal' }, TEST_ACTOR);
  assert.deepEqual([renamed.name, renamed.color], ['one', 'teal']);
});

test("another account's tag is not found, for reading, changing and deleting", async () => {
  const { service, manage } = setup();
  await service.create(OTHER, 'UTC', { url: 'https://example.com/', tags: ['Theirs'] }, TEST_ACTOR);
  const [theirs] = await manage.list(OTHER);
  await assert.rejects(manage.get(ME, theirs!.id), NotFoundError);
  await assert.rejects(manage.update(ME, theirs!.id, { name: 'Mine' }, TEST_ACTOR), NotFoundError);
  await assert.rejects(manage.faultsOf(ME, theirs!.id, { name: '' }), NotFoundError);
  await assert.rejects(manage.delete(ME, theirs!.id, TEST_ACTOR), NotFoundError);
});

test('deleting a tag takes it off its links; the links stay', async () => {
  const { service, manage } = setup();
  const made = await service.create(ME, 'UTC', { url: 'https://example.com/', tags: ['Gone', 'Stays'] }, TEST_ACTOR);
  const gone = (await manage.list(ME)).find((t) => t.name === 'Gone')!;
  await manage.delete(ME, gone.id, TEST_ACTOR);
  const after = await service.get(ME, made.link.id);
  assert.deepEqual(
    after.tags.map((t) => t.name),
    ['Stays'],
  );
});
