import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startMetricsServer, type MetricsServer } from './metrics-server.ts';

const TOKEN = 'port-token-0123456789';
let server: MetricsServer;
const errors: unknown[] = [];

before(async () => {
  let fail = false;
  server = await startMetricsServer({
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    metrics: {
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
      text: async () => {
        if (fail) throw new Error('collect failed');
        fail = true;
        return 'up 1\n';
      },
    },
    onError: (e) => errors.push(e),
  });
});
after(() => server.close());

const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

test('with METRICS_TOKEN set, the port asks for it too; a failed collection is a 500, reported', async () => {
  const refused = await fetch(url('/metrics'));
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="metrics"');
  const auth = { authorization: `Bearer ${TOKEN}` };
  const ok = await fetch(url('/metrics?x=1'), { headers: auth });
  assert.equal(ok.status, 200);
  assert.equal(await ok.text(), 'up 1\n');
  assert.equal((await fetch(url('/metrics'), { headers: auth })).status, 500);
  assert.equal(errors.length, 1);
});

test('nothing but GET or HEAD /metrics', async () => {
  assert.equal((await fetch(url('/'))).status, 404);
  assert.equal((await fetch(url('/metrics/x'))).status, 404);
  assert.equal((await fetch(url('/metrics'), { method: 'DELETE' })).status, 405);
});
