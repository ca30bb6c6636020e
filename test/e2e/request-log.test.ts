// The compiled server's logs and metrics port: one JSON line per API or web request with its
// request id (the trusted proxy's X-Request-Id, echoed back), none per visit; GET /metrics on
// METRICS_PORT while it runs, and a clean exit on SIGTERM with that port open.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliAccountKey, freePort, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { metricValue, parseMetrics } from '../support/metrics-text.ts';

type LogLine = Record<string, unknown>;

function logLines(server: ServerProcess): LogLine[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

async function waitForLine(server: ServerProcess, match: (line: LogLine) => boolean): Promise<LogLine> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const line = logLines(server).find(match);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no such log line in:\n${server.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('request ids in the logs, and the metrics port, of the server process', () => {
  let dir: string;
  let server: ServerProcess;
  let metricsPort: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkpix-e2e-log-'));
    metricsPort = await freePort();
    server = await startServerProcess({
      DATABASE_URL: `sqlite:${join(dir, 'e2e.db')}`,
      TRUST_PROXY: 'true',
      METRICS_PORT: String(metricsPort),
    });
  });
  after(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('an API request logs one JSON line with its request id; a visit logs none', async () => {
    const key = await cliAccountKey(server.env, 'log@example.com');
    const created = await fetch(`${server.base}/api/v1/links`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        'x-request-id': 'lb-e2e-0001',
      },
      body: 'url=https%3A%2F%2Fexample.com%2F&alias=logged',
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get('x-request-id'), 'lb-e2e-0001');
    const line = await waitForLine(server, (l) => l.reqId === 'lb-e2e-0001');
    assert.equal(line.msg, 'request completed');
    assert.equal(line.method, 'POST');
    assert.equal(line.route, '/api/v1/links');
    assert.equal(line.statusCode, 201);
    assert.equal(typeof line.responseTime, 'number');
    assert.equal(logLines(server).filter((l) => l.reqId === 'lb-e2e-0001').length, 1, 'one line, when answered');

    for (let i = 0; i < 3; i++)
      assert.equal((await fetch(`${server.base}/logged`, { redirect: 'manual' })).status, 302);
    await fetch(`${server.base}/health`);
    await waitForLine(server, (l) => l.route === '/health');
    assert.equal(logLines(server).filter((l) => l.route === '/:alias').length, 0);

    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(metrics.status, 200);
    assert.equal(
      metricValue(parseMetrics(await metrics.text()), 'linkpix_http_requests_total', {
        route: '/:alias',
        status: '302',
      }),
      3,
    );
  });

  test('SIGTERM stops the server and its metrics port, exit 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    server.child.kill('SIGTERM');
    assert.equal(await exited, 0);
    await assert.rejects(fetch(`http://127.0.0.1:${metricsPort}/metrics`));
  });
});
