import { CompiledQuery, type Kysely, type KyselyPlugin } from 'kysely';
import type { Database } from '../../src/adapters/storage/schema.ts';
import type { Engine } from '../../src/adapters/storage/connect.ts';
import { SqlLinkStore } from '../../src/adapters/storage/stores/link-store.ts';

/** The statements on `links` that `run` makes the link store execute, as compiled (the search tests' plans). */
export async function linkStatements(
  db: Kysely<Database>,
  engine: Engine,
  run: (store: SqlLinkStore) => Promise<unknown>,
): Promise<CompiledQuery[]> {
  // Kysely also hands a subquery to plugins: what a statement ran is known from its result.
  const compiled = new Map<unknown, CompiledQuery>();
  const seen: CompiledQuery[] = [];
  const executor = db.getExecutor();
  const capture: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      compiled.set(queryId, executor.compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ queryId, result }) => {
      seen.push(compiled.get(queryId)!);
      return result;
    },
  };
  await run(new SqlLinkStore(db.withPlugin(capture), engine));
  return seen.filter((q) => /from "links"/.test(q.sql));
}

/** The plan the database makes for a statement, as text: PostgreSQL's `explain`, SQLite's `explain query plan`. */
export async function planOf(db: Kysely<Database>, engine: Engine, q: CompiledQuery): Promise<string> {
  const explain = engine === 'postgres' ? 'explain ' : 'explain query plan ';
  const { rows } = await db.executeQuery(CompiledQuery.raw(explain + q.sql, [...q.parameters]));
  return rows.map((r) => Object.values(r as object).join(' ')).join('\n');
}
