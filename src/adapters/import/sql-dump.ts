/**
 * The rows of one table in a MySQL dump (mysqldump, phpMyAdmin): only `INSERT INTO `table`
 * [(columns)] VALUES (…), (…);` statements are read; everything else (DDL, other tables, SET,
 * comments) is stepped over. A value is a string (MySQL quoting: '' or a backslash escape), a
 * number, or NULL, so a row is a plain list of text or null. docs/design/import-files.md.
 */
export type SqlRow = { line: number; cells: Record<string, string | null> } | { line: number; unreadable: string };

type Token = { kind: 'string' | 'ident' | 'word' | 'punct'; text: string; line: number };

const ESCAPES: Record<string, string> = { '0': '\0', n: '\n', r: '\r', t: '\t', b: '\b', Z: '\x1a' };

/** MySQL's lexical level: strings, `identifiers`, words and numbers, punctuation; comments dropped. */
function* sqlTokens(text: string): Generator<Token> {
  let i = 0;
  let line = 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '#' || (c === '-' && text[i + 1] === '-')) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      line += countLines(text, i, stop);
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      const start = line;
      let out = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new SyntaxError(`unclosed ${c} opened on line ${start}`);
        const d = text[i]!;
        if (d === '\\' && c !== '`') {
          const e = text[i + 1] ?? '';
          out += ESCAPES[e] ?? e;
          i += 2;
        } else if (d === c && text[i + 1] === c) {
          out += c;
          i += 2;
        } else if (d === c) {
          i++;
          break;
        } else {
          if (d === '\n') line++;
          out += d;
          i++;
        }
      }
      yield { kind: c === '`' ? 'ident' : 'string', text: out, line: start };
    } else if (/[A-Za-z0-9_.+-]/.test(c)) {
      const start = i;
      while (i < text.length && /[A-Za-z0-9_.+-]/.test(text[i]!) && !(text[i] === '-' && text[i + 1] === '-')) i++;
      yield { kind: 'word', text: text.slice(start, i), line };
    } else {
      i++;
      yield { kind: 'punct', text: c, line };
    }
  }
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text[i] === '\n') n++;
  return n;
}

const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.text.toUpperCase() === w;

/**
 * The rows of `table`, by column name: the statement's own column list, else `columns` (the
 * table's documented order). A tuple of the wrong length is reported, the rest still read.
 */
export function* sqlDumpRows(text: string, table: string, columns: readonly string[]): Generator<SqlRow> {
  const tokens = sqlTokens(text);
  const next = () => {
    const r = tokens.next();
    return r.done ? undefined : r.value;
  };
  for (let t = next(); t !== undefined; t = next()) {
    if (!isWord(t, 'INSERT')) continue;
    let u = next();
    while (isWord(u, 'IGNORE') || isWord(u, 'INTO')) u = next();
    if (!(u && (u.kind === 'ident' || u.kind === 'word') && u.text === table)) continue;
    u = next();
    let names = columns;
    if (u?.text === '(' && u.kind === 'punct') {
      const list: string[] = [];
      for (u = next(); u && u.text !== ')'; u = next()) if (u.kind === 'ident' || u.kind === 'word') list.push(u.text);
      names = list;
      u = next();
    }
    if (!isWord(u, 'VALUES')) continue;
    for (u = next(); u && u.text === '(';) {
      const line = u.line;
      const values: Array<string | null> = [];
      for (u = next(); u && !(u.kind === 'punct' && u.text === ')'); u = next()) {
        if (u.kind === 'punct' && u.text === ',') continue;
        values.push(u.kind === 'word' && u.text.toUpperCase() === 'NULL' ? null : u.text);
      }
      if (values.length !== names.length)
        yield { line, unreadable: `Malformed row: ${values.length} values for ${names.length} columns.` };
      else yield { line, cells: Object.fromEntries(names.map((n, i) => [n, values[i]!])) };
      u = next();
      if (u?.kind === 'punct' && u.text === ',') u = next();
    }
  }
}
