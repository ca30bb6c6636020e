import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UnavailableError } from '../../core/shared/errors.ts';
import { isConnectionError, translateConnectionError } from './connection-errors.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('a lost or unreachable database is a connection error', () => {
  for (const error of [
    withCode('57P01', 'terminating connection due to administrator command'),
    withCode('57P02'),
    withCode('57P03'),
    withCode('08006'),
    withCode('08001'),
    withCode('ECONNREFUSED'),
    withCode('ECONNRESET'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Client has encountered a connection error and is not queryable'),
    new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], ''),
  ]) {
    assert.ok(isConnectionError(error), error.message);
    const translated = translateConnectionError(error);
    assert.ok(translated instanceof UnavailableError);
    assert.equal(translated.dependency, 'database');
    assert.equal(translated.cause, error);
  }
});

test("a query's own failure is left as it is", () => {
  for (const error of [
    withCode('23505'),
    withCode('40P01'),
    withCode('42601'),
    withCode('57014'),
    new Error('boom'),
    'text',
  ]) {
    assert.equal(isConnectionError(error), false, String(error));
    assert.equal(translateConnectionError(error), error);
  }
});
