import { test } from 'node:test';
import assert from 'node:assert/strict';
import { faultsOfCheck, FieldErrorBag } from '../shared/errors.ts';
import { UrlPolicy } from './url-policy.ts';

async function refusal(policy: UrlPolicy, value: string): Promise<string | undefined> {
  const faults = await faultsOfCheck(async () => {
    const bag = new FieldErrorBag();
    policy.check(bag, 'url', value);
    bag.throwIfAny();
  });
  return faults.url?.[0];
}

test('a URL of a scheme not on URL_SCHEMES is told which schemes are allowed', async () => {
  assert.equal(
    await refusal(new UrlPolicy(), 'ftp://files.example/a'),
    'The url field must be a URL whose scheme is http or https.',
  );
  assert.equal(
    await refusal(new UrlPolicy(['https', 'ftp', 'mailto']), 'javascript:alert(1)'),
    'The url field must be a URL whose scheme is https, ftp or mailto.',
  );
});

test('what is no URL at all, or an allowed scheme without a host, keeps phpShort’s wording', async () => {
  assert.equal(await refusal(new UrlPolicy(), 'not a url'), 'The url field must be a valid URL.');
  assert.equal(await refusal(new UrlPolicy(), 'http:foo'), 'The url field must be a valid URL.');
  assert.equal(await refusal(new UrlPolicy(), 'https://ok.example/'), undefined);
});
