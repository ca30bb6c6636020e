import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emailFlags, hasHiddenCharacters, normaliseEmail, revealHidden } from './email.ts';
import { FieldErrorBag } from '../shared/errors.ts';
import { checkProfile } from './account-rules.ts';

test('normalised: trimmed (spaces, a BOM, a no-break space), lower case, NFC', () => {
  assert.equal(normaliseEmail(' \uFEFFJose\u0301@Example.COM\u00A0'), 'jos\u00e9@example.com');
  assert.equal(normaliseEmail('\u0130nci@example.com'), 'i\u0307nci@example.com');
});

test('hidden characters: controls, zero-width, bidi, separators, fillers, variation selectors; not accents or other scripts', () => {
  for (const c of [
    '\u0000',
    '\u0007',
    '\u007F',
    '\u0085',
    '\u00AD',
    '\u034F',
    '\u115F',
    '\u200B',
    '\u200C',
    '\u200D',
    '\u200E',
    '\u202A',
    '\u202E',
    '\u2028',
    '\u2060',
    '\u2066',
    '\u2069',
    '\u3164',
    '\uFE0F',
    '\uFEFF',
    '\uE000',
    '\u{E0001}',
  ]) {
    assert.ok(hasHiddenCharacters(`a${c}b@example.com`), `U+${c.codePointAt(0)!.toString(16)}`);
  }
  for (const email of [
    'jos\u00e9@example.com',
    'jose\u0301@example.com',
    '\u5c71\u7530@example.jp',
    '\u043f\u0440\u0438\u043c\u0435\u0440@\u043f\u0440\u0438\u043c\u0435\u0440.com',
    'a+tag_1.x-y@example.com',
  ]) {
    assert.ok(!hasHiddenCharacters(email), email);
  }
  assert.equal(revealHidden('al\u200Bice@example.com\u0000'), 'al⟨U+200B⟩ice@example.com⟨U+0000⟩');
});

test('checkProfile refuses hidden characters, naming email, and stores the normal form', () => {
  const bag = new FieldErrorBag();
  checkProfile({ email: 'ali\u200Bce@example.com' }, bag);
  assert.ok(bag.has('email'));
  const ok = new FieldErrorBag();
  assert.equal(checkProfile({ email: ' JOSE\u0301@example.com ' }, ok).email, 'jos\u00e9@example.com');
  assert.ok(ok.empty);
});

test('mixed scripts are flagged in the local part or in one domain label; one script, or the usual CJK mixes, are not', () => {
  assert.deepEqual(emailFlags('\u0430lice@example.com'), [
    { kind: 'mixed-scripts', part: 'local', scripts: ['Latin', 'Cyrillic'] },
  ]);
  assert.deepEqual(emailFlags('alice@ex\u03b1mple.com'), [
    { kind: 'mixed-scripts', part: 'domain', scripts: ['Latin', 'Greek'] },
  ]);
  assert.deepEqual(emailFlags('al\u0e01ce@example.com'), [
    { kind: 'mixed-scripts', part: 'local', scripts: ['Latin', 'Thai'] },
  ]);
  assert.deepEqual(emailFlags('a\u0b85@example.com')[0], {
    kind: 'mixed-scripts',
    part: 'local',
    scripts: ['Latin', 'Tamil'],
  });
  // A script not listed still counts as one more.
  assert.deepEqual(emailFlags('a\u1200@example.com')[0], {
    kind: 'mixed-scripts',
    part: 'local',
    scripts: ['Latin', 'another script'],
  });
  for (const email of [
    'alice@example.com',
    'jos\u00e9-2@example.com',
    '\u043f\u0440\u0438\u043c\u0435\u0440@\u043f\u0440\u0438\u043c\u0435\u0440.com',
    '\u5c71\u7530\u3072\u30abtaro@example.jp',
    '\ud55c\uae00kim@example.kr',
  ]) {
    assert.deepEqual(emailFlags(email), [], email);
  }
  assert.deepEqual(emailFlags('al\u0000ice@example.com'), [{ kind: 'hidden-characters' }]);
  // Styled (U+1D41A, Common) and fullwidth (U+FF41, Latin) letters: no script mix, an NFKC form.
  assert.deepEqual(emailFlags('\u{1D41A}lice@example.com'), [{ kind: 'compatibility-forms' }]);
  assert.deepEqual(emailFlags('\uFF41lice@example.com'), [{ kind: 'compatibility-forms' }]);
  assert.deepEqual(emailFlags('alice@example.com'), []);
});
