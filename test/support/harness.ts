import { after, before, describe } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import qs from 'qs';
import { loadConfig, type Config } from '../../src/app/config.ts';
import { buildServer, type Server } from '../../src/app/server.ts';
import { retiredSettingsWarning } from '../../src/app/retired-settings.ts';
import type { ContainerOverrides } from '../../src/app/container.ts';
import { FakeDns } from './fake-dns.ts';
import { testDatabaseUrl } from './test-database-url.ts';
import { createMigratedSchema, migratedSqliteAt } from './migrated-template.ts';

export interface Engine {
  name: 'sqlite' | 'postgres';
  /** Why this engine does not run here, if it does not. */
  skip?: string;
}

/**
 * SQLite always; PostgreSQL when TEST_DATABASE_URL names one (else reported as skipped).
 * TEST_ENGINES=sqlite leaves the engine suites to SQLite on purpose: CI's runs on other Nodes
 * test the runtime, and the PostgreSQL suites run once, on Node 20 (tests that need
 * PostgreSQL itself still use it there).
 */
const chosen = (process.env.TEST_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim());

/** Why a test of PostgreSQL itself cannot run here, if it cannot (whatever TEST_ENGINES says). */
export const POSTGRES_SKIP: string | undefined = process.env.TEST_DATABASE_URL
  ? undefined
  : 'TEST_DATABASE_URL is not set: the PostgreSQL run did not happen';

export const ENGINES: Engine[] = (
  [
    { name: 'sqlite' },
    POSTGRES_SKIP ? { name: 'postgres', skip: POSTGRES_SKIP } : { name: 'postgres' },
  ] satisfies Engine[]
).filter((e) => chosen.includes(e.name));

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // The body as JSON; tests read many shapes, so it is deliberately loose.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface RequestOptions {
  key?: string | null;
  form?: Record<string, unknown> | string;
  json?: unknown;
  headers?: Record<string, string>;
  body?: string | ArrayBuffer;
}

export interface Harness {
  engine: Engine['name'];
  server: Server;
  baseUrl: string;
  config: Config;
  /** The PostgreSQL schema this harness works in (undefined on SQLite). */
  pgSchema: string | undefined;
  /** What the domain ownership checks resolve (unless overrides.domainChecks replaces them). */
  dns: FakeDns;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  /** A fresh account and its key. */
  account(email?: string, timezone?: string): Promise<{ id: number; key: string; email: string }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  overrides?: ContainerOverrides;
  /**
   * PostgreSQL only: work in this existing schema (another harness's) instead of a fresh one,
   * to run several instances on one database. The schema stays its creator's to drop.
   */
  pgSchema?: string;
  /** The DNS the domain checks read; a fresh, empty one by default. */
  dns?: FakeDns;
}

let counter = 0;

export async function startHarness(engine: Engine['name'], options: HarnessOptions = {}): Promise<Harness> {
  const tmp = mkdtempSync(join(tmpdir(), 'linkpix-test-'));
  let pgSchema: string | undefined;
  let ownsSchema = false;
  let databaseUrl = `sqlite:${join(tmp, 'test.db')}`;
  // A database of the test's own (env.DATABASE_URL) is left as the test made it; a fresh one is
  // a copy of the process's migrated template (migrated-template.ts).
  const fresh = options.env?.DATABASE_URL === undefined;
  if (engine === 'postgres') {
    databaseUrl = testDatabaseUrl();
    if (options.pgSchema) pgSchema = options.pgSchema;
    else {
      pgSchema = `lp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
      const schema = pgSchema;
      if (fresh) await createMigratedSchema(databaseUrl, schema);
      else await withPg(databaseUrl, (c) => c.query(`create schema ${schema}`));
      ownsSchema = true;
    }
  } else if (options.pgSchema) {
    throw new Error('pgSchema applies to the postgres engine only');
  } else if (fresh) {
    await migratedSqliteAt(join(tmp, 'test.db'));
  }
  // A variable no longer read would leave the test testing nothing.
  const retired = retiredSettingsWarning(options.env ?? {});
  if (retired !== null) throw new Error(`startHarness: ${retired}; move constants to overrides.tuning`);
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'silent',
    TITLE_FETCH: 'false',
    API_RATE_LIMIT: '0',
    APP_URL: 'http://short.test',
    // The redirect snapshot in the test's own directory, never ./data of the working tree.
    SNAPSHOT_PATH: join(tmp, 'redirects.snapshot'),
    // Without a checker of the test's own, no scheduled destination checks: a round would check
    // the test's links over the network.
    ...(options.overrides?.healthChecker ? {} : { HEALTH_CHECK_INTERVAL_HOURS: '0' }),
    ...options.env,
  });
  // Never the real DNS: a test that verifies a domain publishes its token in this one.
  const dns = options.dns ?? new FakeDns();
  // Suites sign many accounts up from 127.0.0.1; the limits' own tests turn them on.
  const tuning = { WEB_RATE_LIMIT: 0, SIGNUP_LIMIT_PER_ADDRESS: 0, ...options.overrides?.tuning };
  const server = await buildServer(config, {
    domainChecks: dns.checks(),
    ...options.overrides,
    tuning,
    ...(pgSchema ? { pgSchema } : {}),
  });
  // With Redis, the start waits a moment at most for the subscription; a test waits for it all.
  await server.container.visits.subscribed;
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const address = server.app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const request = async (method: string, path: string, o: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    if (o.key) headers.authorization = `Bearer ${o.key}`;
    let body: string | ArrayBuffer | undefined = o.body;
    if (o.form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = typeof o.form === 'string' ? o.form : qs.stringify(o.form, { encodeValuesOnly: true });
    } else if (o.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(o.json);
    }
    const res = await fetch(baseUrl + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  };

  return {
    engine,
    server,
    baseUrl,
    config,
    pgSchema,
    dns,
    request,
    account: async (email, timezone) => {
      const address = email ?? `user${++counter}-${randomBytes(3).toString('hex')}@example.com`;
      const made = await server.container.accounts.createAccount({ email: address, timezone });
      return { id: made.account.id, key: made.apiKey, email: address };
    },
    close: async () => {
      await server.close();
      if (pgSchema && ownsSchema) await withPg(databaseUrl, (c) => c.query(`drop schema ${pgSchema} cascade`));
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

async function withPg(url: string, fn: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Runs a suite once per engine, each against its own fresh database and a real listening
 * server. The callback gets a getter because the harness exists only once `before` has run.
 */
export function onEachEngine(title: string, suite: (h: () => Harness) => void, options: HarnessOptions = {}): void {
  for (const engine of ENGINES) {
    describe(`${title} [${engine.name}]`, { skip: engine.skip ?? false }, () => {
      let harness: Harness | undefined;
      before(async () => {
        harness = await startHarness(engine.name, options);
      });
      after(async () => {
        await harness?.close();
      });
      suite(() => {
        if (!harness) throw new Error('harness not started');
        return harness;
      });
    });
  }
}
