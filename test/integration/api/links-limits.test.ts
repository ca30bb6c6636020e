import { test } from 'node:test';
import { onEachEngine } from '../../support/harness.ts';
import { createRefused, makePixel } from './links-support.ts';

const URL_OK = 'https://example.com/limits';

/** The limits linkpix chose where the contract is silent (README): each a 422 that writes nothing. */
onEachEngine('links API: the limits of the README', (h) => {
  test('title ≤ 255, password and privacy_password ≤ 128', async () => {
    const { key } = await h().account();
    await createRefused(h(), key, { form: { url: URL_OK, title: 't'.repeat(256) } }, ['title']);
    await createRefused(h(), key, { form: { url: URL_OK, password: 'p'.repeat(129) } }, ['password']);
    await createRefused(h(), key, { form: { url: URL_OK, privacy: 2, privacy_password: 'p'.repeat(129) } }, [
      'privacy_password',
    ]);
  });

  test('at most 50 pixels and 100 rotation entries; one entry per targeting key', async () => {
    const { key } = await h().account();
    const pixel = await makePixel(h(), key);
    const pixels = Array.from({ length: 51 }, (_, i) => pixel.id + i);
    await createRefused(h(), key, { form: { url: URL_OK, pixels } }, ['pixels']);
    const rotation = Array.from({ length: 101 }, (_, i) => ({ value: `https://r${i}.example.com` }));
    await createRefused(h(), key, { json: { url: URL_OK, rotation } }, ['rotation']);
    const twice = [
      { key: 'US', value: 'https://a.example.com' },
      { key: 'us', value: 'https://b.example.com' },
    ];
    await createRefused(h(), key, { json: { url: URL_OK, country: twice } }, ['country.1.key']);
  });

  test('expiration_clicks beyond the integer range', async () => {
    const { key } = await h().account();
    await createRefused(h(), key, { form: { url: URL_OK, expiration_clicks: '2147483648' } }, ['expiration_clicks']);
  });
});
