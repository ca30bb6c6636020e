import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { requestIdOf } from './request-id.ts';
import { trustFunction } from '../shared/request/client-address.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const request = (from: string, id?: string | string[]) =>
  ({
    socket: { remoteAddress: from },
    headers: id === undefined ? {} : { 'x-request-id': id },
  }) as unknown as IncomingMessage;

test("a trusted proxy's X-Request-Id is kept; anyone else's is replaced by a new UUID", () => {
  const behindProxy = requestIdOf(trustFunction('10.0.0.1'));
  assert.equal(behindProxy(request('10.0.0.1', 'lb-42')), 'lb-42');
  assert.match(behindProxy(request('203.0.113.9', 'lb-42')), UUID);
  const direct = requestIdOf(trustFunction(false));
  assert.match(direct(request('10.0.0.1', 'lb-42')), UUID);
  assert.notEqual(direct(request('10.0.0.1')), direct(request('10.0.0.1')));
});

test('an id that is not a short run of printable ASCII is replaced', () => {
  const trusted = requestIdOf(trustFunction(true));
  for (const id of ['', 'a b', 'é', 'x'.repeat(129), ['a', 'b'], 'line\nbreak'])
    assert.match(trusted(request('127.0.0.1', id)), UUID, JSON.stringify(id));
  assert.equal(trusted(request('127.0.0.1', 'x'.repeat(128))), 'x'.repeat(128));
});
