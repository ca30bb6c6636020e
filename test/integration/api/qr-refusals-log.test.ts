// Issue 30, finding 10: every refused QR request logged an error ("Promise errored, but
// reply.sent = true … 'q' in undefined"): the web page's helper returned the reply, a thenable,
// so awaiting it gave undefined after the 422 had been sent. A refusal logs no more than its
// request line now, whatever its shape, on the API and the web app alike.
import { before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { WebClient, signedUp } from '../../support/web-client.ts';
import { TEST_ACTOR } from '../../support/audit-actor.ts';

interface LogLine {
  level: number;
  msg?: string;
  route?: string;
  statusCode?: number;
}

const DEBUG = 20;
const lines: LogLine[] = [];
const logStream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };

/** Lines above debug other than the request log's one line per answered request. */
const noise = () =>
  lines.filter(
    (l) => l.level > DEBUG && !(l.msg === 'request completed' && l.statusCode !== undefined && l.statusCode < 500),
  );

onEachEngine(
  'refused QR requests log no error',
  (h) => {
    let key: string;
    let me: WebClient;
    let mine: number;
    let theirs: number;

    before(async () => {
      const a = await signedUp(h().baseUrl);
      me = a.client;
      key = (await h().server.container.accounts.createKey(a.email, 'test', TEST_ACTOR)).apiKey;
      const other = await h().account();
      mine = (await h().request('POST', '/api/v1/links', { key, form: { url: 'https://example.com/mine' } })).body.data
        .id;
      theirs = (
        await h().request('POST', '/api/v1/links', { key: other.key, form: { url: 'https://example.com/theirs' } })
      ).body.data.id;
    });

    beforeEach(() => {
      lines.length = 0;
    });

    test('the API: bad size, bad format, unknown or foreign link, malformed id, no key', async () => {
      const shapes: [string, string | null, number][] = [
        [`/api/v1/links/${mine}/qr?size=10`, key, 422],
        [`/api/v1/links/${mine}/qr?size=99999&format=png`, key, 422],
        [`/api/v1/links/${mine}/qr?format=gif`, key, 422],
        [`/api/v1/links/999999/qr`, key, 404],
        [`/api/v1/links/${theirs}/qr?format=png`, key, 404],
        [`/api/v1/links/abc/qr`, key, 404],
        [`/api/v1/links/${mine}/qr`, null, 401],
        [`/api/v1/links/${mine}/qr`, 'lpx_not-a-key', 401],
      ];
      for (const [path, k, status] of shapes)
        assert.equal((await h().request('GET', path, { key: k })).status, status, path);
      assert.deepEqual(noise(), []);
      assert.equal(lines.filter((l) => l.msg === 'request completed').length, shapes.length);
    });

    test('the web app: bad size, margin or colour, unknown or foreign link, malformed id, signed out', async () => {
      const anonymous = new WebClient(h().baseUrl);
      let count = 0;
      for (const page of ['qr', 'qr.png', 'qr.svg']) {
        const shapes: [WebClient, string, number][] = [
          [me, `/links/${mine}/${page}?size=10`, 422],
          [me, `/links/${mine}/${page}?size=1e300`, 422],
          [me, `/links/${mine}/${page}?margin=-1`, 422],
          [me, `/links/${mine}/${page}?foreground=red&background=%23zzzzzz`, 422],
          [me, `/links/999999/${page}`, 404],
          [me, `/links/${theirs}/${page}?size=2048`, 404],
          [me, `/links/abc/${page}`, 404],
          [anonymous, `/links/${mine}/${page}`, 303],
        ];
        for (const [client, path, status] of shapes) {
          const reply = await client.get(path);
          assert.equal(reply.status, status, path);
          if (status === 422) assert.match(reply.text, /<form/, `${path}: the form again, with its errors`);
        }
        count += shapes.length;
      }
      assert.deepEqual(noise(), []);
      assert.equal(lines.filter((l) => l.msg === 'request completed').length, count);
    });
  },
  { env: { LOG_LEVEL: 'debug' }, overrides: { logStream } },
);
