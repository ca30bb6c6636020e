import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvEntries, parseCsv, textEntries } from './bulk-input.ts';

test('textEntries: trimmed non-blank lines with their line numbers, any line ending', () => {
  assert.deepEqual(textEntries(' https://a.test/ \r\n\r\nhttps://b.test/\rhttps://c.test/\n  \n'), [
    { line: 1, url: 'https://a.test/' },
    { line: 3, url: 'https://b.test/' },
    { line: 4, url: 'https://c.test/' },
  ]);
  assert.deepEqual(textEntries('\n \n'), []);
});

test('parseCsv: quotes, doubled quotes, separators and line breaks inside quotes, CRLF', () => {
  const parsed = parseCsv('url,title\r\n"https://a.test/?x=1,2","Say ""hi""\nthere"\r\nhttps://b.test/,\n');
  assert.deepEqual(parsed, {
    rows: [
      { line: 1, cells: ['url', 'title'] },
      { line: 2, cells: ['https://a.test/?x=1,2', 'Say "hi"\nthere'] },
      { line: 4, cells: ['https://b.test/', ''] },
    ],
  });
  assert.deepEqual(parseCsv('url;alias\nhttps://a.test/;x'), {
    rows: [
      { line: 1, cells: ['url', 'alias'] },
      { line: 2, cells: ['https://a.test/', 'x'] },
    ],
  });
});

test('parseCsv: an unclosed quote or text after a closing quote is an error on its line', () => {
  assert.deepEqual(parseCsv('url\n"https://a.test/\n'), { badLine: 2 });
  assert.deepEqual(parseCsv('url\nhttps://a.test/\n"x"y\n'), { badLine: 3 });
});

test('csvEntries: columns by header name in any order, blanks left out, BOM ignored', () => {
  assert.deepEqual(csvEntries('\uFEFFTitle,URL,alias\nHome,https://a.test/,\n,,\n,https://b.test/,bee\n'), {
    entries: [
      { line: 2, url: 'https://a.test/', title: 'Home' },
      { line: 4, url: 'https://b.test/', alias: 'bee' },
    ],
  });
});

test('csvEntries: a header without url, or with unknown columns, is refused', () => {
  assert.deepEqual(csvEntries('https://a.test/\nhttps://b.test/\n'), { problem: { kind: 'noUrlColumn' } });
  assert.deepEqual(csvEntries('url,tags\nhttps://a.test/,x\n'), {
    problem: { kind: 'unknownColumns', names: ['tags'] },
  });
  assert.deepEqual(csvEntries(''), { problem: { kind: 'noUrlColumn' } });
});
