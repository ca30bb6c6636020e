import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';

interface TemplateRecord {
  id: number;
  name: string;
  utm_source: string;
  utm_medium: string;
  utm_campaign: string;
  utm_term: string;
  utm_content: string;
  created_at: string;
  updated_at: string;
}

async function makeTemplate(h: Harness, key: string, fields: Record<string, unknown>): Promise<TemplateRecord> {
  const res = await h.request('POST', '/api/v1/utm-templates', { key, json: fields });
  assert.equal(res.status, 201, res.text);
  return res.body.data as TemplateRecord;
}

const totalOf = async (h: Harness, key: string): Promise<number> =>
  (await h.request('GET', '/api/v1/utm-templates', { key })).body.meta.total as number;

onEachEngine('API UTM templates', (h) => {
  test('create, read, update, list and delete a template', async () => {
    const { key } = await h().account();
    const made = await h().request('POST', '/api/v1/utm-templates', {
      key,
      form: { name: 'Newsletter', utm_source: 'news', utm_medium: 'email', utm_campaign: 'spring sale' },
    });
    assert.equal(made.status, 201, made.text);
    const t = made.body.data as TemplateRecord;
    assert.deepEqual(Object.keys(t).sort(), [
      'created_at',
      'id',
      'name',
      'updated_at',
      'utm_campaign',
      'utm_content',
      'utm_medium',
      'utm_source',
      'utm_term',
    ]);
    assert.deepEqual(
      [t.name, t.utm_source, t.utm_medium, t.utm_campaign, t.utm_term, t.utm_content],
      ['Newsletter', 'news', 'email', 'spring sale', '', ''],
    );

    assert.deepEqual((await h().request('GET', `/api/v1/utm-templates/${t.id}`, { key })).body, {
      data: t,
      status: 200,
    });

    // A field not sent is kept; null or '' clears one.
    const put = await h().request('PUT', `/api/v1/utm-templates/${t.id}`, {
      key,
      json: { utm_term: 'shoes', utm_medium: null, utm_campaign: '' },
    });
    assert.equal(put.status, 200, put.text);
    const updated = put.body.data as TemplateRecord;
    assert.deepEqual(
      [updated.name, updated.utm_source, updated.utm_medium, updated.utm_campaign, updated.utm_term],
      ['Newsletter', 'news', '', '', 'shoes'],
    );

    const list = await h().request('GET', '/api/v1/utm-templates', { key });
    assert.deepEqual(list.body.data, [updated]);
    assert.equal(list.body.meta.total, 1);

    const del = await h().request('DELETE', `/api/v1/utm-templates/${t.id}`, { key });
    assert.deepEqual(del.body, { id: t.id, object: 'utm_template', deleted: true, status: 200 });
    assert.equal((await h().request('GET', `/api/v1/utm-templates/${t.id}`, { key })).status, 404);
  });

  test("another account's template is a 404 to read, change or delete, and is not listed", async () => {
    const owner = await h().account();
    const other = await h().account();
    const t = await makeTemplate(h(), owner.key, { name: 'Mine', utm_source: 's' });
    assert.equal((await h().request('GET', `/api/v1/utm-templates/${t.id}`, { key: other.key })).status, 404);
    assert.equal(
      (await h().request('PUT', `/api/v1/utm-templates/${t.id}`, { key: other.key, json: { name: 'Stolen' } })).status,
      404,
    );
    assert.equal(
      (await h().request('PUT', `/api/v1/utm-templates/${t.id}`, { key: other.key, json: { name: '' } })).status,
      404,
    );
    assert.equal((await h().request('DELETE', `/api/v1/utm-templates/${t.id}`, { key: other.key })).status, 404);
    assert.equal(await totalOf(h(), other.key), 0);
    assert.equal(
      (await h().request('GET', `/api/v1/utm-templates/${t.id}`, { key: owner.key })).body.data.name,
      'Mine',
    );
  });

  test('name: required, at most 64, no control characters, unique per account ignoring case', async () => {
    const { key } = await h().account();
    const other = await h().account();
    const missing = await h().request('POST', '/api/v1/utm-templates', { key, json: { utm_source: 's' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.message, { name: ['The name field is required.'] });
    assert.equal(
      (await h().request('POST', '/api/v1/utm-templates', { key, json: { name: 'n'.repeat(65) } })).status,
      422,
    );
    await makeTemplate(h(), key, { name: 'n'.repeat(64) });
    const control = await h().request('POST', '/api/v1/utm-templates', { key, json: { name: 'a\u0007b' } });
    assert.deepEqual(Object.keys(control.body.message), ['name']);

    await makeTemplate(h(), key, { name: 'Ads' });
    const dup = await h().request('POST', '/api/v1/utm-templates', { key, json: { name: 'ADS' } });
    assert.equal(dup.status, 422);
    assert.deepEqual(dup.body.message, { name: ['The name has already been taken.'] });
    await makeTemplate(h(), other.key, { name: 'Ads' });
    const second = await makeTemplate(h(), key, { name: 'Second' });
    assert.equal(
      (await h().request('PUT', `/api/v1/utm-templates/${second.id}`, { key, json: { name: 'ads' } })).status,
      422,
    );
    assert.equal(
      (await h().request('PUT', `/api/v1/utm-templates/${second.id}`, { key, json: { name: 'SECOND' } })).status,
      200,
    );
    assert.equal(await totalOf(h(), key), 3);
  });

  test('parameters: at most 200 characters, no control characters, text only; every fault at once and nothing written', async () => {
    const { key } = await h().account();
    const res = await h().request('POST', '/api/v1/utm-templates', {
      key,
      json: {
        name: '',
        utm_source: 's'.repeat(201),
        utm_medium: 'a\nb',
        utm_campaign: ['x'],
        utm_term: 5,
        utm_content: 'c'.repeat(200),
      },
    });
    assert.equal(res.status, 422);
    assert.deepEqual(Object.keys(res.body.message).sort(), [
      'name',
      'utm_campaign',
      'utm_medium',
      'utm_source',
      'utm_term',
    ]);
    assert.equal(await totalOf(h(), key), 0);
    const t = await makeTemplate(h(), key, { name: 'ok', utm_content: 'c'.repeat(200), utm_term: ' padded ' });
    assert.equal(t.utm_term, 'padded');
    const bad = await h().request('PUT', `/api/v1/utm-templates/${t.id}`, { key, form: { utm_source: 'x\u0000' } });
    assert.deepEqual(Object.keys(bad.body.message), ['utm_source']);
  });

  test('list: search, sort and pages like the other lists', async () => {
    const { key } = await h().account();
    const made: TemplateRecord[] = [];
    for (let i = 1; i <= 11; i++)
      made.push(await makeTemplate(h(), key, { name: i === 4 ? 'Special four' : `template ${i}` }));
    const search = await h().request('GET', '/api/v1/utm-templates?search=special', { key });
    assert.deepEqual(
      search.body.data.map((t: TemplateRecord) => t.id),
      [made[3]!.id],
    );
    const first = await h().request('GET', '/api/v1/utm-templates', { key });
    assert.equal(first.body.data.length, 10);
    assert.equal(first.body.data[0].id, made[10]!.id);
    assert.equal(first.body.meta.last_page, 2);
    assert.match(first.body.links.next, /\/api\/v1\/utm-templates\?page=2$/);
    const asc = await h().request('GET', '/api/v1/utm-templates?sort=asc&page=2', { key });
    assert.deepEqual(
      asc.body.data.map((t: TemplateRecord) => t.id),
      [made[10]!.id],
    );
    assert.equal((await h().request('GET', '/api/v1/utm-templates?per_page=7', { key })).status, 422);
    assert.equal((await h().request('GET', '/api/v1/utm-templates?page=1.0', { key })).status, 422);
  });
});
