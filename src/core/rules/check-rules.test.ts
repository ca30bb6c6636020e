import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UrlPolicy } from '../links/url-policy.ts';
import { checkRules } from './check-rules.ts';

const urls = new UrlPolicy(['http', 'https']);
function check(input: unknown) {
  const errors: Record<string, string[]> = {};
  const bag = { add: (field: string, message: string) => void (errors[field] ??= []).push(message) };
  const rules = checkRules(bag, input, urls);
  return { rules, errors };
}

test('the issue example is accepted and written the one way (aliases, codes, instants)', () => {
  const { rules, errors } = check([
    { name: 'US iPhone', when: { country: ['us'], os: ['iOS'] }, url: 'https://a.example/' },
    { name: 'German', when: { language: ['DE'] }, url: 'https://b.example/de' },
    { name: 'Newsletter', when: { query: { utm_source: 'newsletter' } }, url: 'https://c.example/' },
    {
      name: 'Office hours',
      when: { time: { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00', tz: 'Europe/Berlin' } },
      url: 'https://d.example/',
    },
    {
      name: 'Mac',
      when: { os: ['macOS', 'ChromeOS'], browser: ['google chrome', 'Safari'], device: ['Desktop'] },
      url: 'https://e.example/',
    },
    {
      when: {
        date: { from: '2026-11-27T10:00:00+01:00' },
        ip: ['10.1.2.3/8'],
        referrer: ['*.News.example', 'none'],
        not: { returning: true },
      },
      url: 'https://f.example/',
    },
    {
      name: 'Test',
      when: {},
      split: [
        { url: 'https://x.example/', weight: 70 },
        { url: 'https://y.example/', weight: 30 },
      ],
    },
  ]);
  assert.deepEqual(errors, {});
  assert.deepEqual(rules![0]!.when, { country: ['US'], os: ['iOS'] });
  assert.deepEqual(rules![1]!.when, { language: ['de'] });
  assert.deepEqual(rules![4]!.when, { os: ['OS X', 'Chrome OS'], browser: ['Chrome', 'Safari'], device: ['desktop'] });
  assert.deepEqual(rules![5]!.when, {
    date: { from: '2026-11-27T09:00:00.000Z' },
    ip: ['10.0.0.0/8'],
    referrer: ['news.example', 'none'],
    not: { returning: true },
  });
  assert.equal(rules![5]!.name, null);
  assert.equal(rules![6]!.split!.length, 2);
});

test('null, "" and [] clear; undefined leaves; JSON text (a form) is read', () => {
  assert.equal(check(null).rules, null);
  assert.equal(check([]).rules, null);
  assert.equal(check('').rules, null);
  assert.equal(check([null]).rules, null, 'a null the body validator wrapped');
  assert.equal(check(undefined).rules, undefined);
  assert.deepEqual(check('[{"when":{},"url":"https://a.example/"}]').rules, [
    { name: null, when: {}, url: 'https://a.example/' },
  ]);
  assert.deepEqual(Object.keys(check('[{').errors), ['rules']);
});

test('every fault is named by its path', () => {
  const { rules, errors } = check([
    { when: {}, url: 'https://ok.example/' },
    { when: { country: ['US', 'XX', 'DE'] }, url: 'https://a.example/' },
    { when: { os: ['BeOS'], time: { from: '9:00', tz: 'Mars/Olympus' } }, url: 'javascript:alert(1)' },
    {
      when: { colour: ['red'] },
      split: [
        { url: 'https://a.example/', weight: 0 },
        { url: 'ftp://b.example/', weight: 50 },
      ],
    },
    { when: {}, url: 'https://a.example/', split: [] },
    { when: { not: { not: { country: ['US'] } } }, url: 'https://a.example/' },
    {
      when: { visits: { below: -1 }, date: { from: '2026-11-27' }, ip: ['300.1.1.1'], returning: 'maybe' },
      url: 'https://a.example/',
    },
  ]);
  assert.equal(rules, undefined, 'nothing is kept of a list with a fault');
  assert.deepEqual(Object.keys(errors).sort(), [
    'rules.1.when.country.1',
    'rules.2.url',
    'rules.2.when.os.0',
    'rules.2.when.time.from',
    'rules.2.when.time.tz',
    'rules.3.split.0.weight',
    'rules.3.split.1.url',
    'rules.3.when.colour',
    'rules.4',
    'rules.5.when.not.not',
    'rules.6.when.date.from',
    'rules.6.when.ip.0',
    'rules.6.when.returning',
    'rules.6.when.visits.below',
  ]);
});

test('limits: 50 rules, 20 values a condition, 64 characters a name', () => {
  const rule = { when: {}, url: 'https://a.example/' };
  assert.deepEqual(Object.keys(check(Array.from({ length: 51 }, () => rule)).errors), ['rules']);
  assert.deepEqual(check(Array.from({ length: 50 }, () => rule)).errors, {});
  const many = Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`);
  assert.deepEqual(Object.keys(check([{ when: { ip: many }, url: 'https://a.example/' }]).errors), ['rules.0.when.ip']);
  assert.deepEqual(check([{ when: { ip: many.slice(1) }, url: 'https://a.example/' }]).errors, {});
  assert.deepEqual(Object.keys(check([{ name: 'x'.repeat(65), when: {}, url: 'https://a.example/' }]).errors), [
    'rules.0.name',
  ]);
});
