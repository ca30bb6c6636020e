import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Link } from '../../core/links/link.ts';
import type { HostedStaticLink } from '../../core/links/static-links.ts';
import { aLink } from '../../../test/support/links.ts';
import { exportStaticCommand } from './export-static.ts';

const link = (id: number, alias: string, extra: Partial<Link> = {}): Link =>
  aLink({ id, alias, url: `https://example.com/${id}`, ...extra });

async function exported(appUrl: string, hosted: HostedStaticLink[]) {
  const out: string[] = [];
  const err: string[] = [];
  await exportStaticCommand.run(
    {
      staticLinks: { linksAfter: async (after) => hosted.filter((h) => h.link.id > after) },
      appUrl,
      redirectStatus: 302,
      write: (text) => out.push(text),
      warn: (text) => err.push(text),
    },
    { format: 'nginx' },
  );
  return { stdout: out.join(''), stderr: err };
}

const hosted = (l: Link, domain: string | null = null): HostedStaticLink => ({
  link: l,
  domain,
  domainVerified: true,
  suspended: false,
});

test("the app's own links are keyed under APP_URL's host name and path, lower-cased; a custom domain's under its name", async () => {
  const { stdout, stderr } = await exported('https://Short.Example/go/', [
    hosted(link(1, 'Launch')),
    hosted(link(2, 'abc'), 'brand.example'),
    hosted(link(3, 'secret', { passwordHash: 'x' })),
  ]);
  assert.ok(stdout.includes('    "short.example/go/launch" "https://example.com/1";\n'), stdout);
  assert.ok(stdout.includes('    "brand.example/abc" "https://example.com/2";\n'), stdout);
  assert.ok(!stdout.includes('Launch'), 'nginx map keys: one, lower-cased');
  assert.ok(!stdout.includes('secret'));
  assert.deepEqual(stderr, ['skipped short.example/go/secret: password', 'export-static: 2 links written, 1 left out']);
});

test('an APP_URL without a path keys the links under its host name alone', async () => {
  const { stdout } = await exported('http://lpx.example:8080', [hosted(link(1, 'x'))]);
  assert.ok(stdout.includes('    "lpx.example/x" "https://example.com/1";\n'), stdout);
});
