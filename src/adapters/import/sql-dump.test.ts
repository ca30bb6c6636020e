import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlDumpRows } from './sql-dump.ts';

const COLS = ['a', 'b'];

test("MySQL quoting: '' and backslash escapes, NULL, numbers, commas and parens inside strings", () => {
  const dump = "INSERT INTO `t` VALUES ('it''s','x\\'y\\\\z\\n'),(NULL,-1.5),('a,(b);c','\"q\"');";
  assert.deepEqual(
    [...sqlDumpRows(dump, 't', COLS)],
    [
      { line: 1, cells: { a: "it's", b: "x'y\\z\n" } },
      { line: 1, cells: { a: null, b: '-1.5' } },
      { line: 1, cells: { a: 'a,(b);c', b: '"q"' } },
    ],
  );
});

test('only INSERTs of the named table; comments, DDL and other tables stepped over; a column list wins', () => {
  const dump = [
    '-- INSERT INTO `t` VALUES (1,2);',
    '/* INSERT INTO `t` VALUES (3,4); */',
    'CREATE TABLE `t` (`a` int, `b` int);',
    'INSERT INTO `other` VALUES (5,6);',
    'INSERT IGNORE INTO t (`b`, `a`) VALUES (7,8);',
  ].join('\n');
  assert.deepEqual([...sqlDumpRows(dump, 't', COLS)], [{ line: 5, cells: { b: '7', a: '8' } }]);
});

test('a tuple of the wrong length is reported; an unclosed string is a SyntaxError', () => {
  assert.deepEqual(
    [...sqlDumpRows('INSERT INTO `t` VALUES (1),(2,3);', 't', COLS)],
    [
      { line: 1, unreadable: 'Malformed row: 1 values for 2 columns.' },
      { line: 1, cells: { a: '2', b: '3' } },
    ],
  );
  assert.throws(() => [...sqlDumpRows("INSERT INTO `t` VALUES ('open", 't', COLS)], SyntaxError);
});
