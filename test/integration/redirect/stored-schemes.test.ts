// Links saved under settings that allowed a scheme refused now (an intent: app link saved before
// intent left APP_SCHEMES, docs/design/app-schemes.md): they keep working as saved, and the start
// warns of them with their count and the first ids. Both engines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { buildServer } from '../../../src/app/server.ts';
import { UA, assertPage, makeLink, visit } from './redirect-support.ts';

const INTENT = 'intent://scan/#Intent;scheme=zxing;package=com.example.scan;end';

interface LogLine {
  level: number;
  msg: string;
  links?: number;
  ids?: number[];
  schemes?: string[];
}

onEachEngine(
  'redirect: links stored with a scheme no longer allowed',
  (h) => {
    test('an intent: app link stored before keeps working; a start names such links, the others not', async () => {
      const { key } = await h().account();
      const db = h().server.container.storage.db;
      const own = await makeLink(h(), key, { url: 'https://example.com/a', android_url: 'myapp://a' });
      const ruled = await makeLink(h(), key, {
        url: 'https://example.com/b',
        rules: JSON.stringify([{ when: { query: { c: 'x' } }, url: 'https://example.com/x' }]),
      });
      const clean = await makeLink(h(), key, { url: 'https://example.com/c', android_url: 'myapp://c' });
      // Saved when the settings allowed intent: (no request can save one now).
      await db.updateTable('links').set({ android_url: INTENT }).where('id', '=', own.id).execute();
      const rules = [
        { name: null, when: { query: { c: 'x' } }, url: 'https://example.com/x', ios_url: 'intent://x#Intent;end' },
      ];
      await db
        .updateTable('links')
        .set({ rules: JSON.stringify(rules) })
        .where('id', '=', ruled.id)
        .execute();

      assertPage(await visit(h(), `/${own.alias}`, { 'user-agent': UA.android }), 200, `href="${INTENT}"`);
      assertPage(await visit(h(), `/${clean.alias}`, { 'user-agent': UA.android }), 200, 'href="myapp://c"');

      // Another start on the same database (a restart after the upgrade).
      const lines: LogLine[] = [];
      const logStream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
      const restarted = await buildServer(
        { ...h().config, LOG_LEVEL: 'warn' },
        { logStream, ...(h().pgSchema ? { pgSchema: h().pgSchema! } : {}) },
      );
      try {
        await restarted.startWarnings;
      } finally {
        await restarted.close();
      }
      const warnings = lines.filter((l) => l.links !== undefined);
      assert.equal(warnings.length, 1, JSON.stringify(lines));
      assert.equal(warnings[0]!.level, 40, 'a warning');
      assert.deepEqual(
        { links: warnings[0]!.links, ids: warnings[0]!.ids, schemes: warnings[0]!.schemes },
        { links: 2, ids: [own.id, ruled.id], schemes: ['intent'] },
      );
      assert.match(warnings[0]!.msg, /intent/);
    });
  },
  { env: { APP_SCHEMES: 'myapp' } },
);
