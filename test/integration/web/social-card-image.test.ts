// The link form's card image upload (docs/design/social-cards.md): the whole form posted
// multipart with its CSRF token, kept as typed on a refusal named social_card.image; removal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onEachEngine } from '../../support/harness.ts';
import { greenPng } from '../../support/qr-logos.ts';
import { csrfOf, type WebClient } from '../../support/web-client.ts';
import { webAccount, type SignedIn } from '../../support/web-resources.ts';

/** Posts the edit form by its "Upload image" button, as a browser does: multipart, every field as typed. */
async function upload(
  client: WebClient,
  id: number,
  file: Buffer | null,
  fields: Record<string, string>,
  token?: string,
) {
  const form = new FormData();
  form.append('_csrf', token ?? csrfOf((await client.get(`/links/${id}/edit`)).text));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('social_card_upload', new Blob([new Uint8Array(file ?? Buffer.alloc(0))]), file ? 'card.png' : '');
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${client.baseUrl}/links/${id}/social-card/image`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
    headers: { cookie },
  });
  return { status: res.status, text: await res.text() };
}

onEachEngine('web: social card image', (h) => {
  let me: SignedIn;
  let other: SignedIn;
  const link = async (owner: SignedIn) => {
    const reply = await h().request('POST', '/api/v1/links', {
      key: owner.key,
      form: { url: 'https://example.com/card', 'social_card[title]': 'Stored title' },
    });
    return reply.body.data.id as number;
  };
  const card = async (owner: SignedIn, id: number) =>
    (await h().request('GET', `/api/v1/links/${id}`, { key: owner.key })).body.data.social_card;

  test('setup', async () => {
    me = await webAccount(h());
    other = await webAccount(h());
  });

  test('the edit form has the upload in its Social card section, posting the whole form multipart', async () => {
    const id = await link(me);
    const page = await me.client.get(`/links/${id}/edit`);
    assert.match(page.text, /<input id="social-card-upload" name="social_card_upload" type="file" accept="image\/png"/);
    assert.match(
      page.text,
      new RegExp(`formaction="/links/${id}/social-card/image" formenctype="multipart/form-data"`),
    );
    assert.doesNotMatch(page.text, /Remove uploaded image/, 'nothing to remove yet');
    const fresh = await me.client.get('/links/new');
    assert.match(fresh.text, /Save the link first, then upload an image here\./);
  });

  test('a PNG: saved and named by the card, the form shown as typed with the preview of the image', async () => {
    const id = await link(me);
    const typed = { url: 'https://example.com/typed', 'social_card[title]': 'Typed title', title: 'Typed' };
    const done = await upload(me.client, id, greenPng(), typed);
    assert.equal(done.status, 200, done.text.slice(0, 500));
    assert.match(done.text, /Image uploaded: the card shows it now\./);
    assert.match(done.text, /value="Typed title"/, 'what was typed is shown again');
    const stored = await card(me, id);
    assert.equal(stored.title, 'Stored title', 'only the image is saved');
    const path = new URL(stored.image).pathname;
    assert.match(done.text, new RegExp(`<img class="social-card-image" src="${path}"`));
    assert.match(done.text, /Remove uploaded image/);
    assert.equal((await fetch(new URL(path, h().baseUrl))).status, 200);

    const token = csrfOf((await me.client.get(`/links/${id}/edit`)).text);
    const removed = await me.client.post(`/links/${id}/social-card/image/remove`, {
      _csrf: token,
      'social_card[title]': 'Typed again',
    });
    assert.equal(removed.status, 200, removed.text.slice(0, 500));
    assert.match(removed.text, /Uploaded image removed\./);
    assert.match(removed.text, /value="Typed again"/);
    assert.equal((await card(me, id)).image, null);
    assert.equal((await fetch(new URL(path, h().baseUrl))).status, 404);
  });

  test('a bad file: 422, the form as typed, the refusal named on social_card.image; nothing stored', async () => {
    const id = await link(me);
    const typed = { 'social_card[title]': 'Kept title', 'social_card[description]': 'Kept words' };
    for (const [file, message] of [
      [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), /The image must be a PNG\./],
      [greenPng().subarray(0, 50), /This PNG cannot be read\./],
      [null, /Choose a PNG file to upload\./],
    ] as const) {
      const res = await upload(me.client, id, file, typed);
      assert.equal(res.status, 422, res.text.slice(0, 500));
      assert.match(res.text, message);
      assert.match(res.text, /value="Kept title"/);
      assert.match(res.text, />Kept words</);
      // The summary links to the card's image field, which shows the refusal.
      assert.match(res.text, /<a href="#f-social_card-image">/);
      assert.match(res.text, /id="f-social_card-image"[^>]*aria-invalid="true"/);
    }
    assert.deepEqual(await card(me, id), { title: 'Stored title', description: null, image: null });
  });

  test("CSRF: a wrong token is a 403; another account's link a 404; nothing stored", async () => {
    const id = await link(me);
    assert.equal((await upload(me.client, id, greenPng(), {}, 'wrong')).status, 403);
    const theirs = await link(other);
    const token = csrfOf((await me.client.get(`/links/${id}/edit`)).text);
    assert.equal((await upload(me.client, theirs, greenPng(), {}, token)).status, 404);
    assert.equal((await me.client.post(`/links/${theirs}/social-card/image/remove`, { _csrf: token })).status, 404);
    assert.equal((await card(me, id)).image, null);
    assert.equal((await card(other, theirs)).image, null);
  });
});
