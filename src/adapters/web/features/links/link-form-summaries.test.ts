import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyUtm } from '../../../../core/utm/utm-params.ts';
import { en } from '../../i18n/en/index.ts';
import { emptyValues, type LinkFormValues } from './link-form-state.ts';
import { formSection, sectionHasError } from './link-form-sections.ts';
import { html } from '../../../shared/html/html.ts';
import {
  appLinksSummary,
  expirySummary,
  protectionSummary,
  tagsSummary,
  targetingSummary,
  trackingSummary,
  type SummaryContext,
} from './link-form-summaries.ts';

const words = en.linkForm.sections.says;

function ctx(values: Partial<LinkFormValues> = {}, more: Partial<SummaryContext> = {}): SummaryContext {
  return { values: { ...emptyValues(0), ...values }, words, utm: emptyUtm(), ...more };
}

test('a new link: every folded section says None', () => {
  const c = ctx();
  for (const summary of [
    tagsSummary,
    targetingSummary,
    protectionSummary,
    expirySummary,
    trackingSummary,
    appLinksSummary,
  ])
    assert.equal(summary(c), 'None');
});

test('tags & UTM: the space by name, the tags counted, each UTM parameter set', () => {
  const utm = { ...emptyUtm(), utm_source: 'news', utm_campaign: 'spring' };
  assert.equal(tagsSummary(ctx({ tags: 'a, b,, ' }, { utm })), '2 tags · utm_source=news · utm_campaign=spring');
  assert.equal(tagsSummary(ctx({ tags: 'a', space: '7' }, { spaceName: () => 'Spring' })), 'Space Spring · 1 tag');
});

test('targeting: rules first, then the list that acts with its filled rows', () => {
  const lists = {
    ...emptyValues(0).lists,
    country: [
      { key: 'DE', value: 'https://x.test' },
      { key: '', value: ' ' },
    ],
  };
  const name = (type: string) => en.linkForm.targeting.types[type];
  assert.equal(targetingSummary(ctx({ target_type: '1', lists }, { targetTypeName: name })), 'By country: 1 URL');
  assert.equal(targetingSummary(ctx({ target_type: '0', lists })), 'None');
  const link = { passwordHash: null, privacyPasswordHash: null, rules: [{}, {}] as never };
  assert.equal(targetingSummary(ctx({ target_type: '0' }, { link })), '2 rules');
});

test('protection: a password typed or stored, its removal, disabled, statistics privacy', () => {
  const link = { passwordHash: 'h', privacyPasswordHash: null, rules: null };
  assert.equal(protectionSummary(ctx({}, { link })), 'Password set');
  assert.equal(protectionSummary(ctx({}, { secrets: { password: 'pw', privacy_password: '' } })), 'Password set');
  assert.equal(protectionSummary(ctx({ remove_password: true }, { link })), 'Password removed on save');
  assert.equal(protectionSummary(ctx({ disabled: true, privacy: '2' })), 'Disabled · Statistics behind a password');
});

test('expiry, tracking, app links', () => {
  assert.equal(expirySummary(ctx({ expiration_date: '2027-01-01' })), 'Expires 2027-01-01');
  assert.equal(
    expirySummary(ctx({ expiration_date: '2027-01-01', expiration_time: '09:30', expiration_clicks: '100' })),
    'Expires 2027-01-01 09:30 · After 100 clicks',
  );
  assert.equal(expirySummary(ctx({ expiration_clicks: '0' })), 'None');
  assert.equal(trackingSummary(ctx({ pixels: ['1', '2'], track_conversions: true })), '2 pixels · Conversions tracked');
  assert.equal(appLinksSummary(ctx({ android_url: 'https://a.test' })), 'Android');
});

test('a section opens when asked or when one of its fields has an error, in either spelling', () => {
  const section = { id: 'targeting', title: 'T', summary: 'None', fields: ['target_type', 'country'], body: html`x` };
  assert.equal(sectionHasError(section, { 'country.0.key': ['bad'] }), true);
  assert.equal(sectionHasError(section, { 'country[0][key]': ['bad'] }), true);
  assert.equal(sectionHasError(section, { url: ['bad'] }), false);
  assert.doesNotMatch(formSection(section, { url: ['bad'] }).toString(), / open>/);
  assert.match(
    formSection(section, { target_type: ['bad'] }).toString(),
    /<details class="form-section" id="section-targeting" open>/,
  );
  assert.match(formSection(section, undefined, true).toString(), / open>/);
  assert.match(
    formSection(section, undefined).toString(),
    /<summary><span class="form-section-title">T<\/span> <span class="form-section-summary">None<\/span><\/summary>/,
  );
});
