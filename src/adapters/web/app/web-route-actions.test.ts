import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webRuleOf } from './web-route-actions.ts';

test('data pages read with the read action; their forms, and the pages that are only forms, need the write action', () => {
  assert.equal(webRuleOf('GET', '/links', 'account'), 'links.read');
  assert.equal(webRuleOf('GET', '/links/:id/qr', 'account'), 'links.read');
  assert.equal(webRuleOf('GET', '/links/new', 'account'), 'links.write');
  assert.equal(webRuleOf('GET', '/links/bulk', 'account'), 'links.write');
  assert.equal(webRuleOf('POST', '/links/bulk-action', 'account'), 'links.write');
  assert.equal(webRuleOf('POST', '/links/:id/preview', 'account'), 'links.read');
  assert.equal(webRuleOf('POST', '/links/tags/:id/delete', 'account'), 'links.write');
  assert.equal(webRuleOf('POST', '/links/utm-templates/new', 'account'), 'links.write');
  assert.equal(webRuleOf('POST', '/dashboard/shorten', 'account'), 'links.write');
  assert.equal(webRuleOf('GET', '/domains/:id/edit', 'account'), 'domains.write');
  assert.equal(webRuleOf('POST', '/domains/:id/verify', 'account'), 'domains.write');
  assert.equal(webRuleOf('GET', '/account/live', 'account'), 'stats.read');
});

test("the person's own pages, the workspaces service's, and public or operator routes", () => {
  assert.equal(webRuleOf('POST', '/account/password', 'account'), 'person');
  assert.equal(webRuleOf('POST', '/logout', 'account'), 'person');
  assert.equal(webRuleOf('POST', '/account/workspaces/:id/settings', 'account'), 'service');
  assert.equal(webRuleOf('POST', '/signup/invitation/:token', 'account'), 'service');
  assert.equal(webRuleOf('POST', '/login', 'public'), 'none');
  assert.equal(webRuleOf('POST', '/admin/accounts/:id/suspend', 'admin'), 'none');
});

test('a route the table does not know is null (a form of it fails the start)', () => {
  assert.equal(webRuleOf('POST', '/reports/new', 'account'), null);
  assert.equal(webRuleOf('POST', '/linksx', 'account'), null);
});
