// The visit path before Fastify declines the first path segments of the app's own routes
// (docs/design/visit.md): each must be a reserved alias, so that no link can be made there that
// the app would shadow. Segments no alias can take (`favicon.svg`: aliases have no dot) need not
// be. The one exception is `c`, the conversion pixel's /c/{click}.gif: /c alone is still a
// link's, which Fastify's /:alias route answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALIAS_PATTERN, isReservedAlias } from '../../../src/core/links/aliases.ts';
import { startHarness } from '../../support/harness.ts';

const NOT_RESERVED = new Set(['c']);

test("every first path segment of the app's routes but `c` is a reserved alias", async () => {
  const h = await startHarness('sqlite');
  try {
    const segments = [...h.server.app.appSegments];
    assert.ok(
      segments.includes('api') && segments.includes('health'),
      `the app's segments were read: ${segments.join(' ')}`,
    );
    assert.deepEqual(
      segments.filter((s) => ALIAS_PATTERN.test(s) && !isReservedAlias(s) && !NOT_RESERVED.has(s)),
      [],
    );
  } finally {
    await h.close();
  }
});
