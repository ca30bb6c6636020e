import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verificationOf } from '../../core/domains/verification.ts';
import { DnsTxtCheck } from './dns-txt-check.ts';

const target = verificationOf({ name: 'go.example.com', verificationToken: 'tok_0123456789abcdefghijkl' });
const records = (answer: string[][]) => async (name: string) => {
  assert.equal(name, '_linkpix.go.example.com');
  return answer;
};

test('a TXT record whose text is the token proves control, split into strings or not', async () => {
  for (const answer of [
    [[target.token]],
    [['v=spf1 -all'], [target.token.slice(0, 5), target.token.slice(5)]],
    [[` ${target.token} `]],
  ]) {
    assert.deepEqual(await new DnsTxtCheck({ timeoutMs: 500, resolveTxt: records(answer) }).check(target), {
      found: true,
    });
  }
});

test('other records, no record or a DNS failure are reasons, never exceptions', async () => {
  const other = await new DnsTxtCheck({ timeoutMs: 500, resolveTxt: records([['nope'], [`x${target.token}`]]) }).check(
    target,
  );
  assert.deepEqual(other, { found: false, reason: '2 TXT record(s), none is the token' });
  const missing = await new DnsTxtCheck({
    timeoutMs: 500,
    resolveTxt: () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOTFOUND' })),
  }).check(target);
  assert.deepEqual(missing, { found: false, reason: 'no TXT record' });
  const failing = await new DnsTxtCheck({
    timeoutMs: 500,
    resolveTxt: () => Promise.reject(Object.assign(new Error('x'), { code: 'ESERVFAIL' })),
  }).check(target);
  assert.deepEqual(failing, { found: false, reason: 'DNS error ESERVFAIL' });
});

test('a resolver that never answers is given up on within the time limit', async () => {
  const started = Date.now();
  const hung = await new DnsTxtCheck({ timeoutMs: 150, resolveTxt: () => new Promise(() => {}) }).check(target);
  assert.deepEqual(hung, { found: false, reason: 'the DNS query timed out' });
  assert.ok(Date.now() - started < 1000);
});
