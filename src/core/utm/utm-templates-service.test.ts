import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NotFoundError, ValidationError } from '../shared/errors.ts';
import { UtmTemplatesService } from './utm-templates-service.ts';
import { MemoryUtmTemplateStore } from '../../../test/support/fakes/utm-fakes.ts';
import { TEST_ACTOR } from '../../../test/support/audit-actor.ts';

const service = () => new UtmTemplatesService(new MemoryUtmTemplateStore(), { now: () => 1000 });

const faults = async (work: Promise<unknown>): Promise<string[]> => {
  try {
    await work;
    return [];
  } catch (error) {
    if (error instanceof ValidationError) return Object.keys(error.fields).sort();
    throw error;
  }
};

test('a template keeps its name trimmed and leaves out the parameters not given', async () => {
  const made = await service().create(1, { name: '  Spring  ', utm_source: ' news ', utm_medium: null }, TEST_ACTOR);
  assert.equal(made.name, 'Spring');
  assert.deepEqual(made.params, {
    utm_source: 'news',
    utm_medium: '',
    utm_campaign: '',
    utm_term: '',
    utm_content: '',
  });
});

test('names: required on create, at most 64, no control characters, unique per account ignoring case', async () => {
  const s = service();
  await s.create(1, { name: 'Ads' }, TEST_ACTOR);
  assert.deepEqual(await faults(s.create(1, { name: '   ' }, TEST_ACTOR)), ['name']);
  assert.deepEqual(await faults(s.create(1, {}, TEST_ACTOR)), ['name']);
  assert.deepEqual(await faults(s.create(1, { name: 'x'.repeat(65) }, TEST_ACTOR)), ['name']);
  assert.deepEqual(await faults(s.create(1, { name: 'a\tb' }, TEST_ACTOR)), ['name']);
  assert.deepEqual(await faults(s.create(1, { name: 'ADS' }, TEST_ACTOR)), ['name']);
  assert.equal((await s.create(2, { name: 'ADS' }, TEST_ACTOR)).name, 'ADS');
  assert.equal((await s.create(1, { name: 'x'.repeat(64) }, TEST_ACTOR)).name.length, 64);
});

test('parameters: at most 200 characters and no control characters, every fault named at once', async () => {
  const s = service();
  assert.deepEqual(
    await faults(
      s.create(
        1,
        { name: '', utm_source: 's'.repeat(201), utm_content: 'a\u007fb', utm_term: 't'.repeat(200) },
        TEST_ACTOR,
      ),
    ),
    ['name', 'utm_content', 'utm_source'],
  );
  assert.deepEqual(await s.faultsOf(1, { name: 'ok', utm_medium: '\n' }), {});
});

test('an update keeps what it is not sent; another account’s template is not found', async () => {
  const s = service();
  const made = await s.create(1, { name: 'Mail', utm_source: 'news', utm_medium: 'email' }, TEST_ACTOR);
  const updated = await s.update(1, made.id, { utm_medium: '', utm_term: 'shoes' }, TEST_ACTOR);
  assert.equal(updated.name, 'Mail');
  assert.deepEqual(updated.params, {
    utm_source: 'news',
    utm_medium: '',
    utm_campaign: '',
    utm_term: 'shoes',
    utm_content: '',
  });
  assert.equal((await s.update(1, made.id, { name: 'MAIL' }, TEST_ACTOR)).name, 'MAIL');
  await assert.rejects(s.get(2, made.id), NotFoundError);
  await assert.rejects(s.update(2, made.id, { name: 'x' }, TEST_ACTOR), NotFoundError);
  await assert.rejects(s.faultsOf(2, { name: '' }, made.id), NotFoundError);
  await assert.rejects(s.delete(2, made.id, TEST_ACTOR), NotFoundError);
  assert.equal(await s.find(2, made.id), null);
  await s.delete(1, made.id, TEST_ACTOR);
  await assert.rejects(s.get(1, made.id), NotFoundError);
});
