// The audit log (docs/design/teams.md) over the API: an entry for each change through the API,
// bulk and import (one per link), no secret in any, filters, CSV, who may read it, retention; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { multipartBody } from '../../support/multipart.ts';
import { SqlAuditLog } from '../../../src/adapters/storage/stores/audit-store.ts';
import { unitOfWorkOn } from '../../../src/adapters/storage/transactions.ts';
import { SqlLinkStore } from '../../../src/adapters/storage/stores/link-store.ts';
import { SqlSpaceStore } from '../../../src/adapters/storage/stores/space-store.ts';
import { SqlDomainStore } from '../../../src/adapters/storage/stores/domain-store.ts';
import { SqlPixelStore } from '../../../src/adapters/storage/stores/pixel-store.ts';
import { LinksService } from '../../../src/core/links/links-service.ts';
import { UrlPolicy } from '../../../src/core/links/url-policy.ts';
import { makeDomain, makeLink } from './links-support.ts';
import { DIRTY_SVG, greenPng } from '../../support/qr-logos.ts';
import { addMember, makeKey, makeWorkspace, type Person } from './workspaces-support.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function audit(h: Harness, key: string, workspaceId: number, query = ''): Promise<Json> {
  const res = await h.request('GET', `/api/v1/workspaces/${workspaceId}/audit${query}`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** A team with its owner's key in it: every change below is the team's. */
async function team(h: Harness): Promise<{ owner: Person; id: number; key: string; keyId: number }> {
  const owner = await h.account();
  const made = await makeWorkspace(h, owner);
  const key = await makeKey(h, owner, made.id);
  const keys = await h.request('GET', `/api/v1/workspaces/${made.id}/api-keys`, { key: owner.key });
  return { owner, id: made.id, key, keyId: keys.body.data[0].id };
}

onEachEngine(
  'API audit log',
  (h) => {
    test('create, update and delete through the API: one entry each, with the person, the key, the fields; no secret', async () => {
      const t = await team(h());
      const link = await makeLink(h(), t.key, { url: 'https://example.com/a', password: 'hunter2-secret' });
      const updated = await h().request('PUT', `/api/v1/links/${link.id}`, {
        key: t.key,
        json: { url: 'https://example.com/b', password: 'other-secret-99' },
      });
      assert.equal(updated.status, 200, updated.text);
      const gone = await h().request('DELETE', `/api/v1/links/${link.id}`, { key: t.key });
      assert.equal(gone.status, 200, gone.text);

      const page = await audit(h(), t.owner.key, t.id, '?target_type=link');
      assert.deepEqual(
        page.data.map((e: Json) => e.action),
        ['link.deleted', 'link.updated', 'link.created'],
      );
      const [deleted, update, created] = page.data;
      for (const e of page.data) {
        assert.deepEqual(e.actor.user_id, t.owner.id);
        assert.equal(typeof e.actor.name, 'string');
        assert.deepEqual(e.key, { id: t.keyId, name: 'k' });
        assert.equal(e.via, 'api');
        assert.deepEqual(e.target, { type: 'link', id: link.id });
      }
      assert.deepEqual(update.changes.url, ['https://example.com/a', 'https://example.com/b']);
      assert.equal(update.changes.password, 'changed');
      assert.equal(created.changes.password, 'changed');
      assert.deepEqual(created.changes.url, [null, 'https://example.com/a']);
      assert.deepEqual(deleted.changes.url, ['https://example.com/b', null]);
      const text = JSON.stringify(page);
      for (const secret of ['hunter2-secret', 'other-secret-99', t.key])
        assert.ok(!text.includes(secret), `no ${secret} in the log`);
      assert.ok(!/\$argon|\$scrypt|sha256/i.test(text), 'no hash either');
    });

    test('bulk changes and deletions and an import: one entry per link', async () => {
      const t = await team(h());
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await makeLink(h(), t.key, { url: `https://example.com/bulk${i}` })).id);
      const disabled = await h().request('PATCH', '/api/v1/links/bulk', {
        key: t.key,
        json: { ids, action: 'disable' },
      });
      assert.equal(disabled.status, 200, disabled.text);
      const removed = await h().request('DELETE', '/api/v1/links/bulk', { key: t.key, json: { ids: ids.slice(0, 2) } });
      assert.equal(removed.status, 200, removed.text);
      const updates = await audit(h(), t.owner.key, t.id, '?action=link.updated');
      assert.deepEqual(updates.data.map((e: Json) => e.target.id).sort(), [...ids].sort());
      for (const e of updates.data) assert.deepEqual(e.changes.disabled, [0, 1]);
      const deletions = await audit(h(), t.owner.key, t.id, '?action=link.deleted');
      assert.deepEqual(deletions.data.map((e: Json) => e.target.id).sort(), ids.slice(0, 2).sort());

      const file = 'url,alias\nhttps://example.com/i1,imp-a1\nhttps://example.com/i2,imp-a2\n';
      const form = await multipartBody([{ field: 'file', bytes: file, name: 'links.csv' }], { format: 'csv' });
      const imported = await h().request('POST', '/api/v1/links/import', { key: t.key, ...form });
      assert.equal(imported.status, 200, imported.text);
      const viaImport = (await audit(h(), t.owner.key, t.id, '?action=link.created')).data.filter(
        (e: Json) => e.via === 'import',
      );
      assert.equal(viaImport.length, 2);
      assert.deepEqual(viaImport.map((e: Json) => e.changes.alias[1]).sort(), ['imp-a1', 'imp-a2']);
      assert.equal(viaImport[0].actor.user_id, t.owner.id);
    });

    test('the workspace itself: settings, invitations, members, keys; no token or key value in any entry', async () => {
      const t = await team(h());
      const b = await h().account();
      const c = await h().account();
      const put = await h().request('PUT', `/api/v1/workspaces/${t.id}`, {
        key: t.owner.key,
        json: { name: 'Renamed', timezone: 'Europe/Paris' },
      });
      assert.equal(put.status, 200, put.text);
      const invited = await h().request('POST', `/api/v1/workspaces/${t.id}/invitations`, {
        key: t.owner.key,
        json: { email: b.email, role: 'viewer' },
      });
      const token = invited.body.data.token as string;
      assert.equal((await h().request('POST', `/api/v1/invitations/${token}/accept`, { key: b.key })).status, 200);
      const other = await h().request('POST', `/api/v1/workspaces/${t.id}/invitations`, {
        key: t.owner.key,
        json: { email: c.email, role: 'editor' },
      });
      assert.equal(
        (
          await h().request('DELETE', `/api/v1/workspaces/${t.id}/invitations/${other.body.data.id}`, {
            key: t.owner.key,
          })
        ).status,
        200,
      );
      assert.equal(
        (
          await h().request('PUT', `/api/v1/workspaces/${t.id}/members/${b.id}`, {
            key: t.owner.key,
            json: { role: 'admin' },
          })
        ).status,
        200,
      );
      const made = await h().request('POST', `/api/v1/workspaces/${t.id}/api-keys`, {
        key: t.owner.key,
        json: { name: 'ci', scopes: ['links:read'] },
      });
      assert.equal(made.status, 201, made.text);
      assert.equal(
        (await h().request('DELETE', `/api/v1/workspaces/${t.id}/api-keys/${made.body.data.id}`, { key: t.owner.key }))
          .status,
        200,
      );
      assert.equal(
        (await h().request('DELETE', `/api/v1/workspaces/${t.id}/members/${b.id}`, { key: t.owner.key })).status,
        200,
      );
      const refused = await h().request('PUT', `/api/v1/workspaces/${t.id}/members/${t.owner.id}`, {
        key: t.owner.key,
        json: { role: 'viewer' },
      });
      assert.equal(refused.status, 422, 'the last owner stays: no entry');

      const log = await audit(h(), t.owner.key, t.id, '?per_page=100');
      const actions = log.data.map((e: Json) => e.action).reverse();
      assert.deepEqual(actions, [
        'workspace.created',
        'api_key.created',
        'workspace.updated',
        'member.invited',
        'invitation.accepted',
        'member.invited',
        'invitation.revoked',
        'member.role_changed',
        'api_key.created',
        'api_key.revoked',
        'member.removed',
      ]);
      const byAction = (action: string) => log.data.filter((e: Json) => e.action === action);
      assert.deepEqual(byAction('workspace.updated')[0].changes, {
        name: ['Team', 'Renamed'],
        timezone: ['UTC', 'Europe/Paris'],
      });
      assert.deepEqual(byAction('member.role_changed')[0].changes, { role: ['viewer', 'admin'] });
      assert.deepEqual(byAction('member.role_changed')[0].target, { type: 'member', id: b.id });
      assert.equal(byAction('invitation.accepted')[0].actor.user_id, b.id);
      assert.deepEqual(byAction('api_key.created')[0].changes.scopes, [null, ['links:read']]);
      const text = JSON.stringify(log);
      for (const secret of [token, made.body.data.key, t.key])
        assert.ok(!text.includes(secret), 'no token or key value in the log');
    });

    test('spaces, pixels, domains, tags and UTM templates: created, updated, deleted, one entry each; a domain\'s proof token only as "changed"', async () => {
      const t = await team(h());
      const space = await h().request('POST', '/api/v1/spaces', { key: t.key, json: { name: 'Spring', color: 2 } });
      assert.equal(space.status, 201, space.text);
      assert.equal(
        (await h().request('PUT', `/api/v1/spaces/${space.body.data.id}`, { key: t.key, json: { name: 'Autumn' } }))
          .status,
        200,
      );
      assert.equal((await h().request('DELETE', `/api/v1/spaces/${space.body.data.id}`, { key: t.key })).status, 200);
      const pixel = await h().request('POST', '/api/v1/pixels', {
        key: t.key,
        json: { name: 'Shop', type: 'facebook', value: '123456789' },
      });
      assert.equal(pixel.status, 201, pixel.text);
      const domain = await h().request('POST', '/api/v1/domains', {
        key: t.key,
        json: { name: `audit-${t.id}.example.com` },
      });
      assert.equal(domain.status, 201, domain.text);
      assert.equal((await h().request('DELETE', `/api/v1/domains/${domain.body.data.id}`, { key: t.key })).status, 200);
      await makeLink(h(), t.key, { url: 'https://example.com/tagged', tags: ['spring'] });
      const tag = (await h().request('GET', '/api/v1/tags', { key: t.key })).body.data[0];
      assert.equal(
        (await h().request('PUT', `/api/v1/tags/${tag.id}`, { key: t.key, json: { name: 'summer' } })).status,
        200,
      );
      assert.equal((await h().request('DELETE', `/api/v1/tags/${tag.id}`, { key: t.key })).status, 200);
      const utm = await h().request('POST', '/api/v1/utm-templates', {
        key: t.key,
        json: { name: 'News', utm_source: 'news' },
      });
      assert.equal(utm.status, 201, utm.text);
      assert.equal(
        (
          await h().request('PUT', `/api/v1/utm-templates/${utm.body.data.id}`, {
            key: t.key,
            json: { utm_medium: 'email' },
          })
        ).status,
        200,
      );
      assert.equal(
        (await h().request('DELETE', `/api/v1/utm-templates/${utm.body.data.id}`, { key: t.key })).status,
        200,
      );
      const log = await audit(h(), t.owner.key, t.id, '?per_page=100');
      const of = (type: string) =>
        log.data
          .filter((e: Json) => e.target.type === type)
          .map((e: Json) => e.action)
          .reverse();
      assert.deepEqual(of('space'), ['space.created', 'space.updated', 'space.deleted']);
      assert.deepEqual(of('pixel'), ['pixel.created']);
      assert.deepEqual(of('domain'), ['domain.created', 'domain.deleted']);
      assert.deepEqual(of('tag'), ['tag.updated', 'tag.deleted']);
      assert.deepEqual(of('utm_template'), ['utm_template.created', 'utm_template.updated', 'utm_template.deleted']);
      const renamed = log.data.find((e: Json) => e.action === 'space.updated');
      assert.deepEqual(renamed.changes, { name: ['Spring', 'Autumn'] });
      const claimed = log.data.find((e: Json) => e.action === 'domain.created');
      for (const [field, value] of Object.entries(claimed.changes)) {
        if (/token/.test(field)) assert.equal(value, 'changed', field);
      }
    });

    test('webhooks: created, changed and deleted, one entry each; the signing secret is in none', async () => {
      const t = await team(h());
      const made = await h().request('POST', '/api/v1/webhooks', {
        key: t.key,
        json: { url: 'http://127.0.0.1:9/hook', events: ['link.expired'] },
      });
      assert.equal(made.status, 201, made.text);
      const secret = made.body.data.secret as string;
      assert.ok(secret.length > 10);
      const path = `/api/v1/webhooks/${made.body.data.id}`;
      assert.equal((await h().request('PATCH', path, { key: t.key, json: { format: 'slack' } })).status, 200);
      assert.equal((await h().request('DELETE', path, { key: t.key })).status, 200);
      const log = await audit(h(), t.owner.key, t.id, '?target_type=webhook');
      assert.deepEqual(
        log.data.map((e: Json) => e.action),
        ['webhook.deleted', 'webhook.updated', 'webhook.created'],
      );
      assert.deepEqual(log.data[1].changes, { format: ['json', 'slack'] });
      assert.deepEqual(log.data[2].changes.url, [null, 'http://127.0.0.1:9/hook']);
      assert.ok(!JSON.stringify(log).includes(secret));
    });

    test('a refused or failed write leaves no entry', async () => {
      const t = await team(h());
      const link = await makeLink(h(), t.key, { url: 'https://example.com/x' });
      const before = (await audit(h(), t.owner.key, t.id)).meta.total;
      assert.equal(
        (await h().request('PUT', `/api/v1/links/${link.id}`, { key: t.key, json: { url: 'not a url' } })).status,
        422,
      );
      assert.equal((await h().request('DELETE', `/api/v1/links/999999`, { key: t.key })).status, 404);
      assert.equal(
        (
          await h().request('POST', '/api/v1/links', {
            key: t.key,
            json: { url: 'https://example.com/y', alias: link.alias },
          })
        ).status,
        422,
      );
      assert.equal((await audit(h(), t.owner.key, t.id)).meta.total, before);
    });

    test('the entry and its change are one transaction: an audit write that fails leaves no link behind', async () => {
      const t = await team(h());
      const { db, engine } = h().server.container.storage;
      const recordsOn = (d: typeof db) => ({
        links: new SqlLinkStore(d, engine),
        spaces: new SqlSpaceStore(d),
        domains: new SqlDomainStore(d),
        pixels: new SqlPixelStore(d),
      });
      const failing = new LinksService({
        ...recordsOn(db),
        clock: { now: () => Date.now() },
        urls: new UrlPolicy(['https']),
        titles: null,
        unitOfWork: unitOfWorkOn(db, (trx) => ({
          ...recordsOn(trx),
          audit: {
            record: async () => {
              throw new Error('the audit log is away');
            },
          },
        })),
      });
      await assert.rejects(
        failing.create(
          t.id,
          'UTC',
          { url: 'https://example.com/never', alias: 'never-audited' },
          { userId: t.owner.id, keyId: null, via: 'web' },
        ),
        /audit log is away/,
      );
      const listed = await h().request('GET', '/api/v1/links?search=never-audited', { key: t.key });
      assert.equal(listed.body.meta.total, 0);
      assert.equal((await audit(h(), t.owner.key, t.id, '?target_type=link')).meta.total, 0);
    });

    test('filters: actor, action (or its type), target, from and to; bad ones are a 422 naming each', async () => {
      const t = await team(h());
      const b = await h().account();
      await addMember(h(), t.owner, t.id, b, 'editor');
      const bKey = await makeKey(h(), b, t.id);
      const mine = await makeLink(h(), t.key, { url: 'https://example.com/mine' });
      const theirs = await makeLink(h(), bKey, { url: 'https://example.com/theirs' });
      await h().request('PUT', `/api/v1/links/${theirs.id}`, { key: bKey, json: { title: 'T' } });

      const byB = await audit(h(), t.owner.key, t.id, `?actor=${b.id}`);
      assert.deepEqual(
        byB.data.map((e: Json) => e.action),
        ['link.updated', 'link.created', 'api_key.created', 'invitation.accepted'],
      );
      assert.equal((await audit(h(), t.owner.key, t.id, '?action=link')).meta.total, 3);
      const one = await audit(h(), t.owner.key, t.id, `?target_type=link&target_id=${mine.id}`);
      assert.deepEqual(
        one.data.map((e: Json) => e.target.id),
        [mine.id],
      );
      const today = new Date().toISOString().slice(0, 10);
      assert.equal((await audit(h(), t.owner.key, t.id, `?from=${today}&to=${today}&action=link`)).meta.total, 3);
      assert.equal((await audit(h(), t.owner.key, t.id, '?to=2000-01-01')).meta.total, 0);
      const paged = await audit(h(), t.owner.key, t.id, '?per_page=10&page=2&action=link');
      assert.deepEqual(paged.data, []);
      assert.equal(paged.meta.total, 3);

      const bad = await h().request(
        'GET',
        `/api/v1/workspaces/${t.id}/audit?from=yesterday&action=DROP%20TABLE&to=2020-13-45`,
        { key: t.owner.key },
      );
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ['action', 'from', 'to']);
    });

    test("a domain's verification and a link's QR logo set, replaced and removed through the API: entries via the API, no bytes", async () => {
      const t = await team(h());
      const domain = await makeDomain(h(), t.key);
      h().dns.publishTxt(domain.verification.txt_name, domain.verification.token);
      const verified = await h().request('POST', `/api/v1/domains/${domain.id}/verify`, { key: t.key });
      assert.equal(verified.status, 200, verified.text);
      assert.equal(
        (await h().request('POST', `/api/v1/domains/${domain.id}/verify`, { key: t.key })).status,
        200,
        'verified twice: one entry',
      );
      const verifications = await audit(h(), t.owner.key, t.id, '?action=domain.verified');
      assert.equal(verifications.data.length, 1);
      const [entry] = verifications.data;
      assert.deepEqual(
        [entry.via, entry.actor.user_id, entry.key?.id, entry.target],
        ['api', t.owner.id, t.keyId, { type: 'domain', id: domain.id }],
      );
      assert.deepEqual(entry.changes.verified_at[0], null);
      assert.equal(typeof entry.changes.verified_at[1], 'number');
      assert.ok(!JSON.stringify(entry).includes(domain.verification.token), 'the verification token is no entry');

      const link = await makeLink(h(), t.key, { url: 'https://example.com/qr-audit' });
      const png = greenPng();
      const logo = (file: Uint8Array | string) =>
        multipartBody([{ field: 'logo', bytes: file, name: 'logo.bin' }], {}, 'PUT');
      assert.equal(
        (await h().request('PUT', `/api/v1/links/${link.id}/qr-logo`, { key: t.key, ...(await logo(png)) })).status,
        200,
      );
      assert.equal(
        (await h().request('PUT', `/api/v1/links/${link.id}/qr-logo`, { key: t.key, ...(await logo(DIRTY_SVG)) }))
          .status,
        200,
      );
      assert.equal((await h().request('DELETE', `/api/v1/links/${link.id}/qr-logo`, { key: t.key })).status, 200);
      assert.equal(
        (await h().request('DELETE', `/api/v1/links/${link.id}/qr-logo`, { key: t.key })).status,
        200,
        'none left: no entry',
      );
      const logos = (await audit(h(), t.owner.key, t.id, `?action=link.updated&target_id=${link.id}`)).data;
      assert.deepEqual(
        logos.map((e: Json) => [
          e.via,
          e.key.id,
          e.changes.qr_logo[0]?.type ?? null,
          e.changes.qr_logo[1]?.type ?? null,
        ]),
        [
          ['api', t.keyId, 'svg', null],
          ['api', t.keyId, 'png', 'svg'],
          ['api', t.keyId, null, 'png'],
        ],
      );
      assert.equal(logos[2].changes.qr_logo[1].bytes, png.length, 'its size, never its bytes');
    });

    test('format=csv: every matching entry, newest first, as a download without secrets', async () => {
      const t = await team(h());
      const link = await makeLink(h(), t.key, { url: 'https://example.com/csv', password: 'csv-secret-pw' });
      await h().request('PUT', `/api/v1/links/${link.id}`, { key: t.key, json: { url: 'https://example.com/csv2' } });
      const res = await h().request('GET', `/api/v1/workspaces/${t.id}/audit?format=csv&target_type=link`, {
        key: t.owner.key,
      });
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(res.headers.get('content-disposition') ?? '', /attachment; filename="audit-\d+\.csv"/);
      const lines = res.text.trimEnd().split('\r\n');
      assert.equal(lines[0], 'id,at,actor_user_id,actor_name,key_id,key_name,via,action,target_type,target_id,changes');
      assert.equal(lines.length, 3);
      assert.match(lines[1]!, /,api,link\.updated,link,/);
      assert.ok(!res.text.includes('csv-secret-pw'));
    });

    test('admins and owners read it; viewers and editors get 403, a scoped key without workspace:admin 403, another workspace 404', async () => {
      const t = await team(h());
      const roles = ['viewer', 'editor', 'admin'] as const;
      const people: Record<string, Person> = {};
      for (const role of roles) {
        people[role] = await h().account();
        await addMember(h(), t.owner, t.id, people[role], role);
      }
      for (const role of roles) {
        const res = await h().request('GET', `/api/v1/workspaces/${t.id}/audit`, { key: people[role]!.key });
        assert.equal(res.status, role === 'admin' ? 200 : 403, `${role}: ${res.text}`);
        const csv = await h().request('GET', `/api/v1/workspaces/${t.id}/audit?format=csv`, { key: people[role]!.key });
        assert.equal(csv.status, role === 'admin' ? 200 : 403, `${role} csv`);
      }
      const scoped = await makeKey(h(), t.owner, t.id, ['links:read']);
      const refused = await h().request('GET', `/api/v1/workspaces/${t.id}/audit`, { key: scoped });
      assert.equal(refused.status, 403);
      assert.match(refused.body.message, /workspace:admin/);
      const stranger = await h().account();
      assert.equal((await h().request('GET', `/api/v1/workspaces/${t.id}/audit`, { key: stranger.key })).status, 404);
      assert.equal(
        (await h().request('GET', `/api/v1/workspaces/${t.id}/audit?format=csv`, { key: stranger.key })).status,
        404,
      );
    });

    test('retention: entries older than AUDIT_RETENTION_DAYS go with the periodic prune, newer ones stay', async () => {
      const t = await team(h());
      await makeLink(h(), t.key, { url: 'https://example.com/kept' });
      const old = Date.now() - 366 * 24 * 60 * 60 * 1000;
      await new SqlAuditLog(h().server.container.storage.db).record([
        {
          workspaceId: t.id,
          actor: { userId: null, keyId: null, via: 'cli' },
          action: 'link.created',
          target: { type: 'link', id: 1 },
          changes: {},
          at: old,
        },
      ]);
      assert.equal((await audit(h(), t.owner.key, t.id, '?target_type=link')).meta.total, 2);
      assert.ok((await h().server.container.audit.prune()) >= 1);
      const left = await audit(h(), t.owner.key, t.id, '?target_type=link');
      assert.equal(left.meta.total, 1);
      assert.equal(left.data[0].changes.url[1], 'https://example.com/kept');
    });
  },
  // Webhooks to a loopback address are created (no delivery is asked for: link.expired only).
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' } },
);
