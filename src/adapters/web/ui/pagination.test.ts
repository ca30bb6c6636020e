import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogueFor } from '../i18n/catalogue.ts';
import { formatterFor } from '../i18n/format.ts';
import type { View } from '../app/view.ts';
import { pagination } from './components.ts';

const view: View = {
  t: catalogueFor('en'),
  fmt: formatterFor('en', 'UTC'),
  csrf: '',
  account: null,
  workspace: null,
  workspaces: [],
  can: () => false,
  url: '/links',
  theme: 'system',
  flash: null,
};
const hrefFor = (n: number) => `/links?page=${n}`;
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

test('an exact total: the range, "page n of last", and next until the last page', () => {
  const second = String(pagination(view, { page: 2, perPage: 10, total: 25, hrefFor }));
  assert.equal(text(second), '11–20 of 25 Previous Page 2 of 3 Next');
  const last = String(pagination(view, { page: 3, perPage: 10, total: 25, hrefFor }));
  assert.equal(text(last), '21–25 of 25 Previous Page 3 of 3');
});

test('a total that is a lower bound: "or more", no last page, next while the page is full', () => {
  const full = String(
    pagination(view, { page: 4, perPage: 10, total: 10_000, totalIsLowerBound: true, shown: 10, hrefFor }),
  );
  assert.equal(text(full), '31–40 of 10,000 or more Previous Page 4 Next');
  assert.ok(full.includes('href="/links?page=5"'));
  const partial = String(
    pagination(view, { page: 1001, perPage: 10, total: 10_000, totalIsLowerBound: true, shown: 3, hrefFor }),
  );
  assert.equal(text(partial), '10001–10003 of 10,000 or more Previous Page 1001');
});

test('nothing matched: no pager at all', () => {
  assert.equal(String(pagination(view, { page: 1, perPage: 10, total: 0, hrefFor })), '');
});
