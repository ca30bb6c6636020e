import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngineWithCli } from '../../support/cli.ts';
import { WebClient } from '../../support/web-client.ts';

onEachEngineWithCli('linkpix CLI: users operator and password', ({ cli, cliWithInput, startServer }) => {
  test('users password sets a password from stdin that signs in, ending the sessions; operator on and off opens and closes /admin', async () => {
    assert.equal((await cli('users', 'create', '--email', 'first@example.com')).code, 0);
    assert.equal((await cli('users', 'create', '--email', 'Ops@Example.com')).code, 0);

    const set = await cliWithInput(
      'a long enough passphrase\nignored second line\n',
      'users',
      'password',
      'ops@example.com',
    );
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(set.stdout), {
      id: 2,
      email: 'ops@example.com',
      password_set: true,
      sessions_ended: true,
    });
    assert.ok(!set.stdout.includes('passphrase'), 'the password is never printed');

    const h = await startServer();
    try {
      const browser = new WebClient(h.baseUrl);
      const login = await browser.post(
        '/login',
        { email: 'ops@example.com', password: 'a long enough passphrase' },
        { from: '/login' },
      );
      assert.equal(login.status, 303, login.text.slice(0, 300));
      assert.equal((await browser.get('/admin')).status, 404, 'the second account is no operator');

      const on = await cli('users', 'operator', 'OPS@example.com');
      assert.equal(on.code, 0, on.stderr);
      assert.deepEqual(JSON.parse(on.stdout), { id: 2, email: 'ops@example.com', operator: true });
      assert.equal((await browser.get('/admin')).status, 200);

      const off = await cli('users', 'operator', 'ops@example.com', '--off');
      assert.equal(off.code, 0, off.stderr);
      assert.equal(JSON.parse(off.stdout).operator, false);
      assert.equal((await browser.get('/admin')).status, 404);

      // A new password ends every session of the account.
      const again = await cliWithInput('another long passphrase\r\n', 'users', 'password', 'ops@example.com');
      assert.equal(again.code, 0, again.stderr);
      const signedOut = await browser.get('/admin');
      assert.equal(signedOut.status, 303);
      assert.match(signedOut.location ?? '', /^\/login/);
      const relogin = await new WebClient(h.baseUrl).post(
        '/login',
        { email: 'ops@example.com', password: 'another long passphrase' },
        { from: '/login' },
      );
      assert.equal(relogin.status, 303);
    } finally {
      await h.close();
    }
  });

  test('bad arguments and input: exit 2 for misuse, 1 for a refusal', async () => {
    const noEmail = await cli('users', 'operator');
    assert.equal(noEmail.code, 2);
    assert.match(noEmail.stderr, /one email address is required/);
    const nobody = await cli('users', 'operator', 'nobody@example.com');
    assert.equal(nobody.code, 1);
    assert.match(nobody.stderr, /No such account/);
    const short = await cliWithInput('short\n', 'users', 'password', 'first@example.com');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /^password: /m);
    const empty = await cliWithInput('', 'users', 'password', 'first@example.com');
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /^password: /m);
    const unknown = await cliWithInput('a long enough passphrase\n', 'users', 'password', 'nobody@example.com');
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /No such account/);
    const help = await cli('--help');
    assert.match(help.stdout, /users operator <email> \[--off\]/);
    assert.match(help.stdout, /users password <email>/);
  });
});
