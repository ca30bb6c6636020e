import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAlpha2Codes } from 'i18n-iso-countries/index.js';
import { COUNTRY_CODES, normalizeCountryCode } from './countries.ts';

// countries.ts takes its codes from i18n-iso-countries; the hand-written list it replaced is kept
// here, as the reference: the same 249 codes, in the same order, and the same answers for input.

const REFERENCE = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
  'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
  'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
  'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
  'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
  'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
  'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
  'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
  'VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

function referenceNormalize(input: string): string | null {
  if (!/^[A-Za-z]{2}$/.test(input)) return null;
  const code = input.toUpperCase();
  return REFERENCE.includes(code) ? code : null;
}

test('the codes are the hand-written list, in its order', () => {
  assert.equal(REFERENCE.length, 249);
  assert.deepEqual([...COUNTRY_CODES], REFERENCE);
});

test("the library's table has one code more, XK, which stays refused", () => {
  const table = Object.keys(getAlpha2Codes());
  assert.deepEqual(
    table.filter((code) => !REFERENCE.includes(code)),
    ['XK'],
  );
  assert.deepEqual(
    REFERENCE.filter((code) => !table.includes(code)),
    [],
  );
  assert.equal(normalizeCountryCode('XK'), null);
  assert.equal(normalizeCountryCode('xk'), null);
});

test('every two-letter input, any case, and odd input normalise as before', () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const inputs = ['', 'U', 'USA', ' US', 'US ', 'U1', '12', 'ß', 'ıt', 'İT', 'ＵＳ', 'u\u0073', '\u212Aa'];
  for (const a of letters)
    for (const b of letters) inputs.push(`${a}${b}`, `${a.toLowerCase()}${b}`, `${a}${b.toLowerCase()}`);
  for (const input of inputs)
    assert.equal(normalizeCountryCode(input), referenceNormalize(input), JSON.stringify(input));
});
