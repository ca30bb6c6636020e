// An email change on the profile page spends the sign-up limits (docs/design/teams.md): per
// client address and per email, refused tries too, with the sign-up form's message on the email
// field; otherwise the profile asks which emails have an account, and takes look-alike
// addresses, without them. A change of name or time zone alone spends nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { onEachEngine, type Harness } from '../../support/harness.ts';
import { PASSWORD, WebClient } from '../../support/web-client.ts';
import { fieldError } from './account-support.ts';

const tag = () => randomBytes(4).toString('hex');
const TOO_MANY = /^Too many sign-ups from here or for this email\. Try again in (59|60) minutes\.$/;

async function signUpFrom(h: Harness, address: string, email = `profile-${tag()}@example.com`) {
  const client = new WebClient(h.baseUrl);
  const reply = await client.post(
    '/signup',
    { name: 'Someone', email, password: PASSWORD },
    { from: '/signup', headers: { 'x-forwarded-for': address } },
  );
  assert.equal(reply.status, 303, reply.text.slice(0, 300));
  return { client, email };
}

const changeEmail = (client: WebClient, email: string, address: string, name = 'Someone') =>
  client.post(
    '/account/profile',
    { name, email, timezone: 'UTC' },
    { from: '/account', headers: { 'x-forwarded-for': address } },
  );

onEachEngine(
  'profile: an email change under the sign-up limits',
  (h) => {
    test('probing a taken email through the profile, from any address, is limited per email: a 429 with the sign-up message', async () => {
      const { email: taken } = await signUpFrom(h(), '198.51.100.1');
      const { client } = await signUpFrom(h(), '198.51.100.2');
      const first = await changeEmail(client, taken.toUpperCase(), '198.51.100.3');
      assert.equal(first.status, 422);
      assert.equal(fieldError(first.text, 'email'), 'The email has already been taken.');
      const limited = await changeEmail(client, taken, '198.51.100.4');
      assert.equal(limited.status, 429, 'the sign-up and the first probe spent the email’s two tries');
      assert.ok(Number(limited.headers.get('retry-after')) > 3000);
      assert.match(fieldError(limited.text, 'email') ?? '', TOO_MANY);
      assert.match(limited.text, /<form method="post" action="\/account\/profile"/, 'the profile form again');
    });

    test('new emails from one address count with its sign-ups; a refused look-alike counts too; the same email does not', async () => {
      const address = '203.0.113.9';
      const { client, email } = await signUpFrom(h(), address);
      for (let i = 0; i < 3; i++)
        assert.equal(
          (await changeEmail(client, ` ${email.toUpperCase()} `, address, `Name ${i}`)).status,
          303,
          'its own email, respelled',
        );
      const hidden = await changeEmail(client, `look\u200B-${tag()}@example.com`, address);
      assert.equal(hidden.status, 422);
      assert.equal(
        fieldError(hidden.text, 'email'),
        'The email must not contain control, invisible or direction-changing characters.',
      );
      assert.equal((await changeEmail(client, `moved-${tag()}@example.com`, address)).status, 303);
      const limited = await changeEmail(client, `moved-again-${tag()}@example.com`, address);
      assert.equal(limited.status, 429, 'a sign-up and two changes spent the address’s three tries');
      assert.match(fieldError(limited.text, 'email') ?? '', TOO_MANY);
      const signUp = await new WebClient(h().baseUrl).post(
        '/signup',
        { name: 'Late', email: `late-${tag()}@example.com`, password: PASSWORD },
        { from: '/signup', headers: { 'x-forwarded-for': address } },
      );
      assert.equal(signUp.status, 429, 'and the sign-ups from there share the budget');
      assert.equal(
        (await changeEmail(client, `elsewhere-${tag()}@example.com`, '203.0.113.10')).status,
        303,
        'another address is not held back',
      );
    });
  },
  {
    env: { TRUST_PROXY: 'loopback' },
    overrides: { tuning: { SIGNUP_LIMIT_PER_ADDRESS: 3, SIGNUP_LIMIT_PER_EMAIL: 2 } },
  },
);
