import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseWorkspace, chosenWorkspaceOf } from './workspace-choice.ts';

function cookieJar() {
  const jar: Record<string, string> = {};
  const reply = { setCookie: (name: string, value: string) => (jar[name] = value) } as unknown as FastifyReply;
  const request = (cookies: Record<string, string>) => ({ cookies, protocol: 'http' }) as unknown as FastifyRequest;
  return { jar, reply, request };
}

test('the choice reads back for its own session only, and not once edited', () => {
  const { jar, reply, request } = cookieJar();
  chooseWorkspace(request({}), reply, 'secret', 'session-a', 42);
  const value = jar.lpx_ws!;
  assert.equal(chosenWorkspaceOf(request({ lpx_ws: value }), 'secret', 'session-a'), 42);
  assert.equal(chosenWorkspaceOf(request({ lpx_ws: value }), 'secret', 'session-b'), null, 'another session');
  assert.equal(chosenWorkspaceOf(request({ lpx_ws: value }), 'other secret', 'session-a'), null, 'another secret');
  assert.equal(
    chosenWorkspaceOf(request({ lpx_ws: value.replace(/^42\./, '43.') }), 'secret', 'session-a'),
    null,
    'another id',
  );
  assert.equal(chosenWorkspaceOf(request({ lpx_ws: 'junk' }), 'secret', 'session-a'), null);
  assert.equal(chosenWorkspaceOf(request({}), 'secret', 'session-a'), null);
});
