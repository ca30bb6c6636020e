// The one answer to a visit (visit-answer.ts), which node:http's visit path and the Fastify
// route each only write out: what it answers for every kind of visit, and the cookies it sets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RedirectDomain, RedirectLink } from '../../core/redirect/redirect-link.ts';
import { aRedirectLink } from '../../../test/support/redirect-links.ts';
import { fakeRedirectContext } from '../../../test/support/redirect-context.ts';
import type { Answer } from './answer.ts';
import { notFoundAnswer, visitAnswer, type VisitInput } from './visit-answer.ts';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const PIXELS: RedirectLink['pixels'] = [{ type: 'facebook', value: '1' }];

const setup = (domain: RedirectDomain | null = null) => fakeRedirectContext({ domain });

const input = (url = '/go', headers: Record<string, string> = {}, method = 'GET'): VisitInput => ({
  method,
  url,
  ip: '8.8.8.8',
  headers: { 'user-agent': BROWSER, ...headers },
});

function settled(answer: Answer | Promise<Answer>): Answer {
  assert.ok(!(answer instanceof Promise), 'a visit through memory stores answers at once');
  return answer;
}

test('a plain link: the redirect with the query merged, one click, no cookie', () => {
  const { ctx, clicks } = setup();
  const answer = settled(visitAnswer(ctx, aRedirectLink({ url: 'https://example.com/p' }), input('/go?a=1')));
  assert.deepEqual(answer, { kind: 'redirect', status: 302, location: 'https://example.com/p?a=1' });
  assert.equal(clicks.length, 1);
});

test('disabled, locked, asking consent, expired: their pages, without a click', () => {
  const { ctx, clicks } = setup();
  const page = (link: RedirectLink) => {
    const answer = settled(visitAnswer(ctx, link, input()));
    assert.equal(answer.kind, 'page');
    return answer.status;
  };
  assert.equal(page(aRedirectLink({ disabled: true })), 404);
  assert.equal(page(aRedirectLink({ passwordHash: 'h' })), 200);
  assert.equal(page(aRedirectLink({ pixels: PIXELS })), 200);
  assert.equal(page(aRedirectLink({ expirationClicks: 1, clicks: 1 })), 410);
  assert.equal(clicks.length, 0);
});

test('the cookies it reads: an unlock cookie opens the link, a consent cookie fires its pixels', () => {
  const { ctx } = setup();
  const locked = aRedirectLink({ id: 7, passwordHash: 'h' });
  const unlock = ctx.unlock.serialize({ id: 7, passwordHash: 'h' }).split(';')[0]!;
  assert.equal(settled(visitAnswer(ctx, locked, input('/go', { cookie: unlock }))).kind, 'redirect');
  const pixels = settled(
    visitAnswer(ctx, aRedirectLink({ pixels: PIXELS }), input('/go', { cookie: 'lp_consent=yes' })),
  );
  assert.equal(pixels.kind, 'page');
  assert.match(pixels.kind === 'page' ? pixels.page.html : '', /facebook|fbq/);
});

test('a posted form: a page rather than a redirect, with the consent or unlock cookie set first', () => {
  const { ctx, clicks } = setup();
  const consented = settled(visitAnswer(ctx, aRedirectLink({ pixels: PIXELS }), input(), { consent: 'no' }));
  assert.equal(consented.kind, 'page');
  assert.equal(consented.cookies?.length, 1);
  assert.match(consented.cookies?.[0] ?? '', /^lp_consent=no;/);
  const unlocked = settled(visitAnswer(ctx, aRedirectLink({ id: 7, passwordHash: 'h' }), input(), { unlocked: true }));
  assert.equal(unlocked.kind, 'page');
  assert.match(unlocked.cookies?.[0] ?? '', /^lp_unlock_7=/);
  assert.equal(clicks.length, 2);
});

test('a link nobody has: the custom domain not-found page if it has one, else linkpix 404', async () => {
  assert.equal((await notFoundAnswer(setup().ctx, 'short.test')).status, 404);
  const domain: RedirectDomain = {
    id: 1,
    accountId: 1,
    indexPage: null,
    notFoundPage: 'https://example.com/404',
    appleAppSiteAssociation: null,
    assetLinks: null,
  };
  assert.deepEqual(await notFoundAnswer(setup(domain).ctx, 'go.example'), {
    kind: 'redirect',
    status: 302,
    location: 'https://example.com/404',
  });
});

const CARD = { title: 'Spring <sale>', description: null, image: 'https://cdn.example/a.png' };
const SLACK = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

test('a link with a card: an unfurler gets the card page, counted as a bot; a browser the redirect', () => {
  const { ctx, clicks } = setup();
  const link = aRedirectLink({ card: CARD, alias: 'sale' });
  const card = settled(visitAnswer(ctx, link, input('/sale', { 'user-agent': SLACK })));
  assert.equal(card.kind, 'page');
  assert.equal(card.status, 200);
  assert.ok(
    card.kind === 'page' && card.page.html.includes('<meta property="og:title" content="Spring &lt;sale&gt;">'),
  );
  assert.ok(
    card.kind === 'page' && card.page.html.includes('content="http://short.test/sale"'),
    'og:url: the short URL',
  );
  assert.deepEqual(
    clicks.map((c) => c.isBot),
    [true],
  );
  const person = settled(visitAnswer(ctx, link, input('/sale')));
  assert.equal(person.kind, 'redirect');
  assert.deepEqual(
    clicks.map((c) => c.isBot),
    [true, false],
  );
});

test('a custom domain link: og:url on the host it was reached by', () => {
  const { ctx } = setup();
  const link = aRedirectLink({ card: CARD, alias: 'x', domainId: 3 });
  const answer = settled(
    visitAnswer(ctx, link, { ...input('/x', { 'user-agent': SLACK }), host: 'Go.Brand.test:8443' }),
  );
  assert.ok(answer.kind === 'page' && answer.page.html.includes('content="https://go.brand.test/x"'));
});

test('no card for a disabled or expired link, nor for a link without one', () => {
  const { ctx } = setup();
  const ua = { 'user-agent': SLACK };
  assert.equal(settled(visitAnswer(ctx, aRedirectLink({ card: CARD, disabled: true }), input('/go', ua))).status, 404);
  const expired = aRedirectLink({ card: CARD, expirationClicks: 1, clicks: 1 });
  assert.equal(settled(visitAnswer(ctx, expired, input('/go', ua))).status, 410);
  assert.equal(settled(visitAnswer(ctx, aRedirectLink(), input('/go', ua))).kind, 'redirect');
});
