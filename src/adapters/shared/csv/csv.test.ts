import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, toCsv } from './csv.ts';

test('RFC 4180: CRLF rows, quotes only where needed, doubled inside', () => {
  assert.equal(
    toCsv(
      ['value', 'count'],
      [
        ['plain', 1],
        ['a,b', 2],
        ['say "hi"', 3],
        ['two\nlines', 4],
        [null, 5],
      ],
    ),
    'value,count\r\nplain,1\r\n"a,b",2\r\n"say ""hi""",3\r\n"two\nlines",4\r\n,5\r\n',
  );
  assert.equal(toCsv(['value', 'count'], []), 'value,count\r\n');
});

test('cells a spreadsheet would run as formulas are neutralised', () => {
  for (const s of ['=1+2', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])
    assert.equal(csvField(s).replace(/^"|"$/g, '').startsWith("'"), true, JSON.stringify(s));
  assert.equal(csvField('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`);
  assert.equal(csvField('Zürich'), 'Zürich');
  assert.equal(csvField('2026-03-01'), '2026-03-01');
  assert.equal(csvField(-3), '-3', 'numbers are numbers');
});
