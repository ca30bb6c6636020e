import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngineWithCli } from '../../support/cli.ts';
import { WebClient } from '../../support/web-client.ts';

const APP_URL = 'https://links.example.test';

onEachEngineWithCli(
  'linkpix CLI: users reset-link',
  ({ cli, startServer }) => {
    test('prints a single-use reset link on APP_URL that sets the password; an unknown email is refused', async () => {
      assert.equal((await cli('users', 'create', '--email', 'Reset@Example.com')).code, 0);
      const made = await cli('users', 'reset-link', 'reset@example.com');
      assert.equal(made.code, 0, made.stderr);
      const out = JSON.parse(made.stdout) as { email: string; reset_link: string; expires_at: string };
      assert.equal(out.email, 'reset@example.com');
      assert.match(out.reset_link, /^https:\/\/links\.example\.test\/login\/reset\/[A-Za-z0-9_-]{43}$/);
      assert.ok(Date.parse(out.expires_at) > Date.now());

      const unknown = await cli('users', 'reset-link', 'nobody@example.com');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /No such account/);
      assert.equal((await cli('users', 'reset-link')).code, 2);

      const h = await startServer();
      try {
        const path = out.reset_link.slice(APP_URL.length);
        const browser = new WebClient(h.baseUrl);
        const set = await browser.post(
          path,
          { password: 'set from the link', password_confirmation: 'set from the link' },
          { from: path },
        );
        assert.equal(set.status, 303, set.text.slice(0, 300));
        const login = await new WebClient(h.baseUrl).post(
          '/login',
          { email: 'reset@example.com', password: 'set from the link' },
          { from: '/login' },
        );
        assert.equal(login.status, 303);
        assert.equal((await browser.get(path)).status, 410, 'used once');
      } finally {
        await h.close();
      }
    });
  },
  { APP_URL },
);
