// require_2fa (issue 33): a member without two-factor sees the workspace and nothing else in it until enrolled; both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { addMember, enrolTwoFactor, makeKey, makeWorkspace } from './workspaces-support.ts';

const TWO_FACTOR = /two-factor/;

onEachEngine('API workspaces: require_2fa', (h) => {
  test('an owner without two-factor cannot require it (422 on require_2fa); enrolled, they can', async () => {
    const a = await h().account();
    const team = await makeWorkspace(h(), a);
    const refused = await h().request('PUT', `/api/v1/workspaces/${team.id}`, {
      key: a.key,
      json: { require_2fa: true },
    });
    assert.equal(refused.status, 422, refused.text);
    assert.match(String(refused.body.message.require_2fa), TWO_FACTOR);
    assert.equal(
      (await h().request('GET', `/api/v1/workspaces/${team.id}`, { key: a.key })).body.data.require_2fa,
      false,
      'nothing was written',
    );
    await enrolTwoFactor(h(), a);
    const done = await h().request('PUT', `/api/v1/workspaces/${team.id}`, { key: a.key, json: { require_2fa: true } });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.data.require_2fa, true);
  });

  test('a member without two-factor: 403 naming two-factor on every route of the workspace, no new key; enrolled, all comes back', async () => {
    const a = await h().account();
    const b = await h().account();
    await enrolTwoFactor(h(), a);
    const team = await makeWorkspace(h(), a);
    await addMember(h(), a, team.id, b, 'editor');
    const bTeamKey = await makeKey(h(), b, team.id);
    const required = await h().request('PUT', `/api/v1/workspaces/${team.id}`, {
      key: a.key,
      json: { require_2fa: true },
    });
    assert.equal(required.status, 200, required.text);

    const links = await h().request('GET', '/api/v1/links', { key: bTeamKey });
    assert.equal(links.status, 403, links.text);
    assert.deepEqual(Object.keys(links.body).sort(), ['message', 'status']);
    assert.match(links.body.message, TWO_FACTOR);
    const write = await h().request('POST', '/api/v1/links', { key: bTeamKey, json: { url: 'https://example.com/x' } });
    assert.equal(write.status, 403, 'the policy answers before the body is read');
    assert.equal(
      (await h().request('GET', '/api/v1/account', { key: bTeamKey })).status,
      200,
      'the key still names its workspace',
    );
    for (const [method, path] of [
      ['GET', `/api/v1/workspaces/${team.id}/members`],
      ['GET', `/api/v1/workspaces/${team.id}/api-keys`],
      ['POST', `/api/v1/workspaces/${team.id}/api-keys`],
    ] as const) {
      const res = await h().request(method, path, {
        key: b.key,
        json: method === 'POST' ? { name: 'mine' } : undefined,
      });
      assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
      assert.match(res.body.message, TWO_FACTOR);
    }
    assert.equal(
      (await h().request('GET', `/api/v1/workspaces/${team.id}`, { key: b.key })).status,
      200,
      'the workspace itself is seen',
    );
    assert.equal(
      (await h().request('GET', '/api/v1/links', { key: b.key })).status,
      200,
      'their personal workspace does not require it',
    );

    await enrolTwoFactor(h(), b);
    assert.equal((await h().request('GET', '/api/v1/links', { key: bTeamKey })).status, 200);
    await makeKey(h(), b, team.id);
    const members = await h().request('GET', `/api/v1/workspaces/${team.id}/members`, { key: b.key });
    assert.deepEqual(
      members.body.data.map((m: { user_id: number; two_factor: boolean }) => [m.user_id, m.two_factor]),
      [
        [a.id, true],
        [b.id, true],
      ],
    );
  });

  test('a member without two-factor may still leave a workspace that requires it', async () => {
    const a = await h().account();
    const b = await h().account();
    await enrolTwoFactor(h(), a);
    const team = await makeWorkspace(h(), a);
    await addMember(h(), a, team.id, b, 'viewer');
    await h().request('PUT', `/api/v1/workspaces/${team.id}`, { key: a.key, json: { require_2fa: true } });
    const left = await h().request('DELETE', `/api/v1/workspaces/${team.id}/members/${b.id}`, { key: b.key });
    assert.equal(left.status, 200, left.text);
  });
});
