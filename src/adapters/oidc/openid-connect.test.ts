import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenIdConnect, ProviderUnreachableError } from './openid-connect.ts';

const listening = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

const options = (issuer: string) => ({
  issuer,
  clientId: 'linkpix',
  clientSecret: 'secret',
  redirectUri: 'http://short.test/login/sso/callback',
  timeoutSeconds: 1,
});

test('nothing is asked of the provider until the first sign-in; a provider that is away is told as such, and asked again next time', async () => {
  const closed = createServer();
  const port = await listening(closed);
  await new Promise((resolve) => closed.close(resolve));
  const oidc = new OpenIdConnect(options(`http://127.0.0.1:${port}`));
  await assert.rejects(oidc.start(), ProviderUnreachableError);
  await assert.rejects(oidc.start(), ProviderUnreachableError, 'a failed discovery is not kept');
});

test('a provider that does not answer is given up after the timeout', async () => {
  const silent = createServer(() => {});
  const port = await listening(silent);
  try {
    const started = Date.now();
    await assert.rejects(new OpenIdConnect(options(`http://127.0.0.1:${port}`)).start(), ProviderUnreachableError);
    assert.ok(Date.now() - started < 5000);
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});
