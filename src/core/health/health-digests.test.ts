import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HealthDigests } from './health-digests.ts';
import type { BrokenLinkLine, HealthDigestStore } from './digest-ports.ts';
import type { MailMessage } from '../mail/mailer.ts';

const DAY = 86_400_000;

/** One workspace, one admin; claims kept by key; the windows asked for recorded. */
function setup(links: BrokenLinkLine[], fail = false) {
  const claims = new Map<string, number>();
  const windows: Array<[number, number]> = [];
  const store: HealthDigestStore = {
    workspacesWithBroken: async () => [{ id: 5, name: 'Growth <Team>' }],
    recipients: async () => [{ userId: 9, name: 'Ada', email: 'ada@example.com' }],
    claim: async (w, u, day, until) => {
      const key = `${w}/${u}/${day}`;
      if (claims.has(key)) return null;
      const before = [...claims].filter(([k]) => k < key).map(([, v]) => v);
      claims.set(key, until);
      return { previousUntil: before.length ? Math.max(...before) : null };
    },
    release: async (w, u, day) => void claims.delete(`${w}/${u}/${day}`),
    newlyBroken: async (_w, since, until) => {
      windows.push([since, until]);
      return links.filter((l) => l.brokenSince > since && l.brokenSince <= until);
    },
  };
  const sent: MailMessage[] = [];
  const clock = { t: Date.parse('2026-03-02T00:30:00Z'), now: () => clock.t };
  const digests = new HealthDigests({
    store,
    clock,
    urls: { appUrl: 'https://app.example/', domainScheme: 'https' },
    mailer: {
      send: async (m) => {
        if (fail) throw new Error('refused');
        sent.push(m);
      },
    },
    onError: () => undefined,
  });
  return { digests, sent, claims, windows, clock };
}

const line = (brokenSince: number, more: Partial<BrokenLinkLine> = {}): BrokenLinkLine => ({
  linkId: 3,
  alias: 'promo',
  domain: null,
  url: 'https://shop.example/?a=1&b=<2>',
  code: 404,
  reason: 'status',
  brokenSince,
  ...more,
});

test('the first digest tells the last day; the next one starts where it ended, and none twice a day', async () => {
  const now = Date.parse('2026-03-02T00:30:00Z');
  const s = setup([line(now - 2 * DAY), line(now - 60_000, { linkId: 4, alias: 'go', domain: 'go.example' })]);
  assert.equal(await s.digests.round(), 1);
  assert.deepEqual(s.windows, [[now - DAY, now]]);
  assert.equal(s.sent.length, 1);
  assert.match(s.sent[0]!.text, /https:\/\/go\.example\/go → https:\/\/shop\.example/);
  assert.doesNotMatch(s.sent[0]!.text, /app\.example\/promo/, 'broken before the window: told before');
  assert.equal(await s.digests.round(), 0, 'the day is claimed');
  s.clock.t = now + 3 * DAY;
  await s.digests.round();
  assert.deepEqual(s.windows[1], [now, now + 3 * DAY]);
  s.clock.t = now + 30 * DAY;
  await s.digests.round();
  assert.deepEqual(s.windows[2], [now + 23 * DAY, now + 30 * DAY], 'a week at most');
});

test('the HTML part escapes what people typed; a mail that fails gives its claim back', async () => {
  const now = Date.parse('2026-03-02T00:30:00Z');
  const ok = setup([line(now - 1000)]);
  await ok.digests.round();
  const { html, subject, to } = ok.sent[0]!;
  assert.equal(to, 'ada@example.com');
  assert.match(subject, /1 link newly broken in Growth <Team>/);
  assert.ok(html!.includes('Growth &#60;Team&#62;') && html!.includes('b=&#60;2&#62;'));
  assert.ok(!html!.includes('<Team>'));
  assert.ok(html!.includes('href="https://app.example/links/3"'));

  const failing = setup([line(now - 1000)], true);
  assert.equal(await failing.digests.round(), 0);
  assert.equal(failing.claims.size, 0, 'released: a later round tries again');
});

test('a round stopped begins no mail and claims no day: the next round sends it', async () => {
  const now = Date.parse('2026-03-02T00:30:00Z');
  const s = setup([line(now - 60_000)]);
  const stop = new AbortController();
  stop.abort();
  assert.equal(await s.digests.round(stop.signal), 0);
  assert.equal(s.claims.size, 0);
  assert.equal(await s.digests.round(), 1);
});
