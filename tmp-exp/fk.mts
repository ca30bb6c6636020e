import { inFreshPgSchema } from '../bench/pg-schema.ts';
import { connect } from '../src/adapters/storage/connect.ts';
import { migrateToLatest } from '../src/adapters/storage/migrations/index.ts';
import { sql } from 'kysely';
await inFreshPgSchema(async (url, schema) => {
  const storage = connect(url, { schema });
  const db = storage.db;
  await migrateToLatest(db, 'postgres');
  await sql`insert into accounts (name, email, timezone, created_at) values ('a','a@x','UTC',0)`.execute(db);
  await sql`insert into links (account_id, alias, alias_key, url, target_type, disabled, privacy, created_at, updated_at)
    select 1, 'l'||g, 'l'||g, 'https://e.com/', 0, 0, 0, 0, 0 from generate_series(1,10000) g`.execute(db);
  const fks = (await sql<{ conname: string }>`select conname from pg_constraint where conrelid = 'clicks'::regclass and contype = 'f'`.execute(db)).rows;
  console.log('fks', fks.map((f) => f.conname));
  const batch = async () => {
    const t = performance.now();
    await sql`insert into clicks (link_id, account_id, at, country, city, browser, platform, device, language, referrer_host, is_bot)
      select 1 + (g * 7919) % 10000, 1, 1700000000000 + g, 'US', null, 'Chrome', 'Windows', 'desktop', 'en', 'r.example', 0 from generate_series(1, 1000) g`.execute(db);
    return performance.now() - t;
  };
  const run = async (label: string) => {
    for (let i = 0; i < 20; i++) await batch();
    const times: number[] = [];
    for (let i = 0; i < 100; i++) times.push(await batch());
    times.sort((a, b) => a - b);
    console.log(label, 'median ms per 1000 rows', times[50]!.toFixed(2));
  };
  await run('with FKs');
  for (const f of fks) await sql.raw(`alter table clicks drop constraint ${f.conname}`).execute(db);
  await run('without FKs');
  await storage.close();
});
