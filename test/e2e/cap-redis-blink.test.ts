/**
 * Two instances on PostgreSQL and a redis-server of their own take visits to a capped link
 * while Redis is killed and started again empty, down for less than a second: too short for
 * some instances to see a failed call. Each round grants exactly the cap, and the database
 * stores as many clicks as were granted (docs/design/caps.md).
 * A blink serves two rounds at once, each a link of its own: what a round checks is one link's
 * count (seeded, closed and brought back to Redis per link and connection), and each link has
 * its own visits, 16 at a time, through the whole outage. Ten blinks hold twenty rounds in half
 * the time: most of a round is the wait for the grace after Redis starts, which both links share.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { hasNginx, NGINX, startCluster, type Cluster } from '../support/cluster.ts';
import { cliAccountKey, isolatedPgUrl } from '../support/processes.ts';
import { OwnRedis } from '../support/redis-server.ts';
import { visitLoad, type LoadResult } from '../support/visit-load.ts';
import { POSTGRES_SKIP } from '../support/harness.ts';
import { testDatabaseUrl } from '../support/test-database-url.ts';
import { tuningEnv } from '../support/test-tuning.ts';

const FLUSH_MS = 200;
const CAP = 60;
const ROUNDS = 20;
/** Rounds that share one blink of Redis (each a link and visits of its own). */
const ROUNDS_PER_BLINK = 2;
const CONCURRENCY = 16;
// Redis goes once this many visits of a round have been sent: well under the cap, so that grants
// are made before, during and after the outage.
const KILL_AT = 24;
const METRICS_TOKEN = 'blink-metrics-token';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const describeLoad = (load: LoadResult) => `statuses ${JSON.stringify([...load.statuses])}, no answer ${load.failed}`;

describe('a click cap across two instances while Redis blinks', { skip: POSTGRES_SKIP ?? false }, () => {
  let schema: { url: string; drop(): Promise<void> };
  let redis: OwnRedis;
  let admin: pg.Client;
  let cluster: Cluster;
  let key: string;

  const instanceOutput = () =>
    cluster.instances.map((i) => `--- instance ${i.index}\n${i.output().slice(-4000)}`).join('\n');
  const create = async (alias: string): Promise<number> => {
    const res = await fetch(`${cluster.url}/api/v1/links`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: `url=https%3A%2F%2Fexample.com%2F${alias}&alias=${alias}&expiration_clicks=${CAP}`,
    });
    const text = await res.text();
    assert.equal(res.status, 201, text);
    return JSON.parse(text).data.id as number;
  };
  /** Redis killed with no goodbye to its clients, and started again empty on its port. */
  const blink = async (outageMs: number) => {
    await redis.stop('SIGKILL');
    await sleep(outageMs);
    await redis.start();
  };
  /** The link's clicks as counted (settled and pending) and as rows. */
  const stored = async (id: number) => {
    const { rows } = await admin.query<{ clicks: string; rows: string }>(
      `select (select clicks from links where id = $1) + (select coalesce(sum(clicks), 0) from link_click_counts where link_id = $1) as clicks,
        (select count(*) from clicks where link_id = $1) as rows`,
      [id],
    );
    return { clicks: Number(rows[0]!.clicks), rows: Number(rows[0]!.rows) };
  };
  /** Clicks an instance has recorded and not yet written (or dropped): GET /metrics's linkpix_clicks_pending. */
  const pending = async (base: string) => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const value = /^linkpix_clicks_pending (\S+)/m.exec(await res.text())?.[1];
    assert.ok(value !== undefined, `no linkpix_clicks_pending at ${base}/metrics (${res.status})`);
    return Number(value);
  };
  /**
   * Waits until `expected` clicks are stored and neither instance holds a click it has not
   * written (or a deadline): every visit has been answered, so a click too many would show.
   */
  const settled = async (id: number, expected: number) => {
    const deadline = Date.now() + 10_000;
    const done = async () =>
      (await stored(id)).rows >= expected &&
      (await Promise.all(cluster.instances.map((i) => pending(i.base)))).every((n) => n === 0);
    while (!(await done()) && Date.now() < deadline) await sleep(FLUSH_MS / 2);
    return stored(id);
  };

  before(async () => {
    assert.ok(hasNginx(), `nginx is not installed at ${NGINX}: apt-get install -y nginx`);
    schema = await isolatedPgUrl(testDatabaseUrl());
    admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    redis = await OwnRedis.start();
    cluster = await startCluster({
      instances: 2,
      databaseUrl: schema.url,
      redisUrl: redis.url,
      env: {
        TITLE_FETCH: 'false',
        LOG_LEVEL: 'info',
        CLICK_FLUSH_INTERVAL_MS: String(FLUSH_MS),
        METRICS_TOKEN,
        ...tuningEnv({ STATS_FLUSH_INTERVAL_MS: 0 }),
      },
    });
    key = await cliAccountKey({ DATABASE_URL: schema.url }, 'blink@example.com');
  });

  after(async () => {
    cluster?.kill();
    redis?.kill();
    await admin?.end();
    await schema?.drop();
  });

  test(`${ROUNDS} rounds of 200–240 visits, 16 at a time, ${ROUNDS_PER_BLINK} at once, Redis killed and started empty after 0.2–0.5 s: exactly the cap of ${CAP} each time`, async () => {
    const failures: string[] = [];
    for (let first = 0; first < ROUNDS; first += ROUNDS_PER_BLINK) {
      const rounds = Array.from({ length: ROUNDS_PER_BLINK }, (_, k) => first + k);
      const ids = await Promise.all(rounds.map((round) => create(`blink${round}`)));
      const outageMs = 200 + Math.floor(Math.random() * 300);
      let blinked: Promise<void> = Promise.resolve();
      const loads = await Promise.all(
        rounds.map((round, k) =>
          visitLoad({
            // Both instances in turn, past nginx: each sees every phase of the outage.
            url: (i) => `${cluster.instances[i % 2]!.base}/blink${round}?n=${i}`,
            concurrency: CONCURRENCY,
            total: 200 + Math.floor(Math.random() * 41),
            // The first round's visits time the blink; the others' run beside, at the same pace.
            before: (i) => {
              if (k === 0 && i === KILL_AT) blinked = blink(outageMs);
            },
          }),
        ),
      );
      await blinked;
      for (const [k, round] of rounds.entries()) {
        const load = loads[k]!;
        const granted = load.statuses.get(302) ?? 0;
        const unexpected = [...load.statuses.keys()].filter((s) => s !== 302 && s !== 410);
        const written = await settled(ids[k]!, granted);
        const detail = `round ${round}, outage ${outageMs} ms: ${describeLoad(load)}; stored ${JSON.stringify(written)}`;
        if (
          granted !== CAP ||
          load.failed > 0 ||
          unexpected.length > 0 ||
          written.clicks !== granted ||
          written.rows !== granted
        )
          failures.push(detail);
      }
    }
    assert.deepEqual(
      failures,
      [],
      `${failures.length} of ${ROUNDS} rounds off:\n${failures.join('\n')}\n${instanceOutput()}`,
    );
  });
});
