// The ClickSink contract on each arrangement of the one click pipeline (docs/design/clicks.md): the
// sink on the redirect's thread (ColumnarClickSink) in front of the writer thread on a SQLite
// file and on PostgreSQL, and in front of the same writer in process for an in-memory SQLite.
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ColumnarClickSink } from '../../../src/adapters/clicks/sink/columnar-click-sink.ts';
import { InProcessClickWriter } from '../../../src/adapters/clicks/thread/in-process-click-writer.ts';
import { WorkerClickStore } from '../../../src/adapters/clicks/thread/worker-click-store.ts';
import type { WriterData } from '../../../src/adapters/clicks/thread/worker-messages.ts';
import { connect, type Storage } from '../../../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../../../src/adapters/storage/migrations/index.ts';
import { linkRow } from '../../support/link-rows.ts';
import { POSTGRES_SKIP } from '../../support/harness.ts';
import { testDatabaseUrl } from '../../support/test-database-url.ts';
import { describeClickSinkContract, type ClickSinkSubject } from '../click-sink-contract.ts';
import { sqlClickState } from '../click-writer-contract.ts';

const TIMING = { writeIntervalMs: 50, maxBuffered: 1_000_000 };
const SINK = { intervalMs: 20, maxBatch: 500 };

/** A fresh link of a fresh account, and its deletion, on `storage`. */
let made = 0;
function linksOn(storage: () => Storage): Pick<ClickSinkSubject, 'link' | 'deleteLink' | 'state'> {
  return {
    link: async () => {
      const db = storage().db;
      const n = ++made;
      const { id: accountId } = await db
        .insertInto('accounts')
        .values({
          name: 'sink',
          email: `sink${n}-${randomBytes(3).toString('hex')}@example.com`,
          timezone: 'UTC',
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id } = await db
        .insertInto('links')
        .values(linkRow(accountId, `sink${n}`))
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id, accountId };
    },
    deleteLink: async (id) => {
      await storage().db.deleteFrom('links').where('id', '=', id).execute();
    },
    state: (id) => sqlClickState(storage().db)(id),
  };
}

const failOnError = (error: unknown) => assert.fail(error as Error);

describe('the writer thread on a SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'linkpix-sinks-'));
  const url = `sqlite:${join(dir, 'clicks.db')}`;
  let storage: Storage;
  before(async () => {
    storage = connect(url);
    await migrateToLatest(storage.db, 'sqlite');
  });
  after(async () => {
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const data: WriterData = { engine: 'sqlite', databaseUrl: url, rollupIntervalMs: 60_000, ...TIMING };
  describeClickSinkContract('ColumnarClickSink → WorkerClickStore (SQLite file)', () => {
    const writer = new WorkerClickStore(data, { onError: failOnError });
    const sink = new ColumnarClickSink(writer, SINK);
    return Promise.resolve({ sink: closing(sink, writer), ...linksOn(() => storage) });
  });
});

describe('the writer in process on an in-memory SQLite', () => {
  let storage: Storage;
  before(async () => {
    storage = connect('sqlite::memory:');
    await migrateToLatest(storage.db, 'sqlite');
  });
  after(() => storage.close());
  describeClickSinkContract('ColumnarClickSink → InProcessClickWriter (in-memory SQLite)', () => {
    const writer = InProcessClickWriter.over(storage, { ...TIMING, windowMs: 60_000, onError: failOnError });
    const sink = new ColumnarClickSink(writer, SINK);
    return Promise.resolve({ sink: closing(sink, writer), ...linksOn(() => storage) });
  });
});

describe('the writer thread on PostgreSQL', { skip: POSTGRES_SKIP ?? false }, () => {
  const url = testDatabaseUrl();
  const schema = `lp_sinks_${process.pid}_${randomBytes(4).toString('hex')}`;
  let storage: Storage;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  before(async () => {
    await admin(`create schema ${schema}`);
    storage = connect(url, { schema, poolSize: 2 });
    await migrateToLatest(storage.db, 'postgres');
  });
  after(async () => {
    await storage?.close();
    await admin(`drop schema if exists ${schema} cascade`);
  });
  describeClickSinkContract('ColumnarClickSink → WorkerClickStore (PostgreSQL)', () => {
    const writer = new WorkerClickStore(
      { engine: 'postgres', databaseUrl: url, schema, rollupIntervalMs: 60_000, ...TIMING },
      { onError: failOnError },
    );
    const sink = new ColumnarClickSink(writer, SINK);
    return Promise.resolve({ sink: closing(sink, writer), ...linksOn(() => storage) });
  });
});

/** The sink, whose close() also closes its writer, as the server's stop does. */
function closing(sink: ColumnarClickSink, writer: { close(): Promise<void> }): ColumnarClickSink {
  const close = sink.close.bind(sink);
  return Object.assign(sink, {
    close: async () => {
      await close();
      await writer.close();
    },
  });
}
