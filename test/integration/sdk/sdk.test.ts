// The SDK (packages/sdk, docs/api.md "SDK") against the real server on each engine: every call of
// its surface, answers unwrapped from the envelope, refusals as typed errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { BROWSER, redirectsTo, visit } from '../redirect/redirect-support.ts';
import { Linkpix, LinkpixError, LinkpixValidationError, type Link } from '../../../packages/sdk/src/index.ts';

/** What the fake destination checker answers, by destination; 200 for any other. */
const checker = { check: async (url: string) => (url.includes('gone') ? { code: 404 } : { code: 200 }) };

async function client(h: Harness): Promise<Linkpix> {
  const { key } = await h.account();
  return new Linkpix({ url: h.baseUrl, apiKey: key });
}

onEachEngine(
  'the SDK against the server',
  (h) => {
    test('create, get, update and delete answer the link record itself', async () => {
      const linkpix = await client(h());
      const made = await linkpix.links.create({ url: 'https://example.com/sdk', title: 'SDK', tags: ['Launch'] });
      assert.equal(made.url, 'https://example.com/sdk');
      assert.equal(made.title, 'SDK');
      assert.deepEqual(made.tags, ['Launch']);
      assert.match(made.short_url, new RegExp(`/${made.alias}$`));
      assert.deepEqual(await linkpix.links.get(made.id), made);
      const changed = await linkpix.links.update(made.id, { url: 'https://example.com/changed' });
      assert.equal(changed.url, 'https://example.com/changed');
      assert.equal(changed.title, 'SDK', 'what the changes leave out stays');
      assert.deepEqual(await linkpix.links.delete(made.id), { id: made.id, object: 'link', deleted: true });
      await assert.rejects(linkpix.links.get(made.id), (error) => {
        assert.ok(error instanceof LinkpixError);
        assert.equal(error.status, 404);
        assert.deepEqual(error.body, { message: 'Resource not found.', status: 404 });
        return true;
      });
    });

    test('create and update carry the API’s warnings beside the record, not in it', async () => {
      const linkpix = await client(h());
      const plain = await linkpix.links.create({ url: 'https://example.com/plain' });
      assert.deepEqual(plain.warnings, [], 'none sent: an empty list');
      const odd = [{ when: { country: ['US', 'US'] }, url: 'https://a.example/' }];
      const made = await linkpix.links.create({ url: 'https://example.com/odd', rules: odd });
      assert.deepEqual(
        made.warnings.map((w) => w.field),
        ['rules.0.when.country.1'],
      );
      assert.ok(made.warnings.every((w) => typeof w.message === 'string' && w.message.length > 0));
      assert.equal('warnings' in JSON.parse(JSON.stringify(made)), false, 'the record prints as the API’s data');
      assert.deepEqual({ ...made }, await linkpix.links.get(made.id));
      const split = [
        {
          when: {},
          split: [
            { url: 'https://x.example/', weight: 60 },
            { url: 'https://y.example/', weight: 60 },
          ],
        },
      ];
      const changed = await linkpix.links.update(made.id, { rules: split });
      assert.deepEqual(
        changed.warnings.map((w) => w.field),
        ['rules.0.split'],
      );
      assert.deepEqual((await linkpix.links.update(made.id, { rules: [] })).warnings, []);
    });

    test('list iterates every page; page reads one', async () => {
      const linkpix = await client(h());
      const made = new Set<number>();
      for (let i = 0; i < 23; i++) made.add((await linkpix.links.create({ url: `https://example.com/p${i}` })).id);
      await linkpix.links.create({ url: 'https://example.com/other', tags: ['elsewhere'] });
      const seen: Link[] = [];
      for await (const link of linkpix.links.list({ per_page: 10, sort: 'asc' })) seen.push(link);
      assert.equal(seen.length, 24);
      assert.deepEqual(new Set(seen.slice(0, 23).map((l) => l.id)), made);
      const tagged: Link[] = [];
      for await (const link of linkpix.links.list({ tag: 'elsewhere' })) tagged.push(link);
      assert.deepEqual(
        tagged.map((l) => l.url),
        ['https://example.com/other'],
      );
      const page = await linkpix.links.page({ per_page: 10, page: 3 });
      assert.equal(page.data.length, 4);
      assert.deepEqual([page.meta.current_page, page.meta.last_page, page.meta.total], [3, 3, 24]);
      assert.equal('status' in page, false, 'the envelope’s status is left out');
    });

    test('stats, explain, check and qr', async () => {
      const linkpix = await client(h());
      const link = await linkpix.links.create({ url: 'https://gone.example/' });
      for (let i = 0; i < 3; i++) assert.equal((await visit(h(), `/${link.alias}`)).status, 302);
      await h().server.container.visits.sink.flush();
      const clicks = await linkpix.links.stats(link.id, { name: 'clicks', per_page: 100 });
      assert.ok('stats' in clicks);
      assert.equal(clicks.stats.total, 3);
      assert.equal(clicks.data.length, 30, 'the last 30 days, one page of 100');
      assert.equal(
        clicks.data.reduce((n, e) => n + e.count, 0),
        3,
      );
      const countries = await linkpix.links.stats(link.id, { name: 'country', from: clicks.stats.from });
      assert.ok('stats' in countries);
      assert.equal(countries.stats.from, clicks.stats.from);

      const explained = await linkpix.links.explain(link.id, { country: 'DE', user_agent: BROWSER });
      assert.equal(explained.outcome, 'redirect');
      assert.equal(explained.url, 'https://gone.example/');
      assert.equal(explained.counts_click, true);

      const checked = await linkpix.links.check(link.id);
      assert.equal(checked.health.status, 'broken');
      assert.equal(checked.health.code, 404);

      const png = await linkpix.links.qr(link.id, { format: 'png', size: 128 });
      assert.ok(png instanceof Uint8Array);
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      const svg = new TextDecoder().decode(await linkpix.links.qr(link.id));
      assert.match(svg, /<svg[\s>]/);
    });

    test('a conversion is recorded against the visit’s click id, once per name', async () => {
      const linkpix = await client(h());
      const link = await linkpix.links.create({ url: 'https://shop.example/', track_conversions: 1 });
      const cid = new URL(await redirectsTo(h(), `/${link.alias}`)).searchParams.get('lpx_cid');
      assert.ok(cid);
      const sale = await linkpix.conversions.record({ click_id: cid, name: 'sale', value: 12.5, currency: 'eur' });
      assert.deepEqual([sale.link_id, sale.name, sale.value, sale.currency], [link.id, 'sale', 12.5, 'EUR']);
      const again = await linkpix.conversions.record({ click_id: cid, name: 'sale', value: 99 });
      assert.deepEqual(again, sale, 'the first one, unchanged');
    });

    test('a 422 is a LinkpixValidationError with the fields as the API names them; a bad key a 401', async () => {
      const linkpix = await client(h());
      await assert.rejects(linkpix.links.create({ url: 'javascript:alert(1)', alias: 'a b' }), (error) => {
        assert.ok(error instanceof LinkpixValidationError);
        assert.equal(error.status, 422);
        assert.deepEqual(Object.keys(error.fields).sort(), ['alias', 'url']);
        assert.ok(error.fields.url?.every((m) => typeof m === 'string'));
        assert.match(error.message, /^alias: |\nalias: /m);
        return true;
      });
      const stranger = new Linkpix({ url: h().baseUrl, apiKey: 'lpx_not-a-key' });
      await assert.rejects(stranger.account.get(), (error) => error instanceof LinkpixError && error.status === 401);
      const account = await linkpix.account.get();
      assert.match(account.email, /@example\.com$/);
    });
  },
  { overrides: { healthChecker: checker } },
);
