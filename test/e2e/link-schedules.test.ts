// Scheduled link changes (docs/design/history.md): checked as an update when made, applied by the
// scheduler's round once their time has come (a manual clock moved on, a 50 ms round), as a version
// via schedule; failed with the reason when the rules refuse them then; cancelled; and applied
// exactly once by two servers on one PostgreSQL database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, POSTGRES_SKIP, startHarness, type Harness } from '../support/harness.ts';
import { ManualClock } from '../support/fakes/account-fakes.ts';
import { eventually } from '../support/eventually.ts';
import { makeLink, unique } from '../integration/api/links-support.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR = 3_600_000;
const tuning = { SCHEDULE_POLL_MS: 50, WEBHOOK_POLL_MS: 50 };

const receiver = new WebhookReceiver();
before(() => receiver.start());
after(() => receiver.close());

const schedule = (h: Harness, key: string, id: number, body: unknown) =>
  h.request('POST', `/api/v1/links/${id}/schedule`, { key, json: body });

async function schedules(h: Harness, key: string, id: number): Promise<Json[]> {
  const res = await h.request('GET', `/api/v1/links/${id}/schedule`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

async function versions(h: Harness, key: string, id: number): Promise<Json[]> {
  const res = await h.request('GET', `/api/v1/links/${id}/history?per_page=100`, { key });
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

const inAnHour = (clock: ManualClock) => new Date(clock.now() + HOUR).toISOString();

const clock = new ManualClock(Date.now());

onEachEngine(
  'scheduled link changes',
  (h) => {
    test('made, checked as an update, listed; applied once due as a version via schedule', async () => {
      const person = await h().account();
      const link = await makeLink(h(), person.key, { url: 'https://example.com/now' });
      const bad = await schedule(h(), person.key, link.id, {
        at: new Date(clock.now() - 1000).toISOString(),
        changes: { url: 'ftp://nope', password: 'x-secret-1' },
      });
      assert.equal(bad.status, 422, bad.text);
      assert.deepEqual(Object.keys(bad.body.message).sort(), ['at', 'changes.password', 'changes.url']);

      const made = await schedule(h(), person.key, link.id, {
        at: inAnHour(clock),
        changes: { url: 'https://example.com/later', disabled: 1 },
      });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.body.data.status, 'pending');
      assert.deepEqual(made.body.data.changes, { url: 'https://example.com/later', disabled: 1 });
      assert.equal((await schedules(h(), person.key, link.id))[0].id, made.body.data.id);
      const hookPath = `/schedule-hook/${h().engine}/${link.id}`;
      const hook = await h().request('POST', '/api/v1/webhooks', {
        key: person.key,
        json: { url: receiver.url + hookPath, events: ['link.updated'] },
      });
      assert.equal(hook.status, 201, hook.text);

      clock.advance(HOUR + 1000);
      await eventually(
        'the schedule applied',
        async () => (await schedules(h(), person.key, link.id))[0].status === 'applied',
      );
      const read = await h().request('GET', `/api/v1/links/${link.id}`, { key: person.key });
      assert.equal(read.body.data.url, 'https://example.com/later');
      const [applied] = await versions(h(), person.key, link.id);
      assert.equal(applied.via, 'schedule');
      assert.equal(applied.actor.user_id, person.id);
      assert.deepEqual(applied.changes, {
        url: ['https://example.com/now', 'https://example.com/later'],
        disabled: [0, 1],
      });
      await eventually('its link.updated delivery', () => receiver.on(hookPath).length === 1);
      const delivered = JSON.parse(receiver.on(hookPath)[0]!.body);
      assert.deepEqual(
        [delivered.type, delivered.data.link.id, delivered.data.link.url],
        ['link.updated', link.id, 'https://example.com/later'],
      );
    });

    test('an alias taken meanwhile: failed, with the reason; a cancelled one is never applied', async () => {
      const person = await h().account();
      const link = await makeLink(h(), person.key, { url: 'https://example.com/f' });
      const wanted = unique('wanted');
      const failing = await schedule(h(), person.key, link.id, { at: inAnHour(clock), changes: { alias: wanted } });
      assert.equal(failing.status, 201, failing.text);
      const cancelled = await schedule(h(), person.key, link.id, {
        at: inAnHour(clock),
        changes: { url: 'https://example.com/never' },
      });
      const cancel = await h().request('DELETE', `/api/v1/links/${link.id}/schedule/${cancelled.body.data.id}`, {
        key: person.key,
      });
      assert.equal(cancel.status, 200, cancel.text);
      assert.equal(cancel.body.data.status, 'cancelled');
      const again = await h().request('DELETE', `/api/v1/links/${link.id}/schedule/${cancelled.body.data.id}`, {
        key: person.key,
      });
      assert.equal(again.status, 422, again.text);
      await makeLink(h(), person.key, { url: 'https://example.com/g', alias: wanted });

      clock.advance(HOUR + 1000);
      const byId = async () => new Map((await schedules(h(), person.key, link.id)).map((s) => [s.id, s]));
      await eventually('the schedule failed', async () => (await byId()).get(failing.body.data.id).status === 'failed');
      const all = await byId();
      assert.match(all.get(failing.body.data.id).reason, /alias/);
      assert.equal(all.get(cancelled.body.data.id).status, 'cancelled');
      assert.equal((await versions(h(), person.key, link.id)).length, 1, 'neither added a version');

      const stranger = await h().account();
      assert.equal((await schedules(h(), person.key, link.id)).length, 2);
      const foreign = await h().request('GET', `/api/v1/links/${link.id}/schedule`, { key: stranger.key });
      assert.equal(foreign.status, 404);
    });
  },
  { env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, overrides: { clock, tuning } },
);

describe('scheduled link changes on two instances [postgres]', { skip: POSTGRES_SKIP ?? false }, () => {
  const shared = new ManualClock(Date.now());
  let one: Harness;
  let two: Harness;
  before(async () => {
    one = await startHarness('postgres', { overrides: { clock: shared, tuning } });
    two = await startHarness('postgres', { overrides: { clock: shared, tuning }, pgSchema: one.pgSchema! });
  });
  after(async () => {
    await two?.close();
    await one?.close();
  });

  test('each schedule applied exactly once', async () => {
    const person = await one.account();
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      const link = await makeLink(one, person.key, { url: `https://example.com/twin${i}` });
      const made = await schedule(two, person.key, link.id, {
        at: inAnHour(shared),
        changes: { url: `https://example.com/twin${i}/later` },
      });
      assert.equal(made.status, 201, made.text);
      ids.push(link.id);
    }
    shared.advance(HOUR + 1000);
    await eventually('every schedule applied', async () => {
      for (const id of ids) if ((await schedules(one, person.key, id))[0].status !== 'applied') return false;
      return true;
    });
    for (const id of ids) {
      const done = (await versions(two, person.key, id)).filter((v: Json) => v.via === 'schedule');
      assert.equal(done.length, 1, `link ${id}: one version via schedule`);
    }
  });
});
