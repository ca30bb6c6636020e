import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { sanitiseSvgLogo } from './svg-logo.ts';
import { readLogo } from './qr-logo-input.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

test('script, event attributes, foreignObject and outside references are removed; shapes stay', () => {
  const dirty =
    `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">` +
    '<script>alert(1)</script><rect width="10" height="10" fill="red" onclick="steal()"/>' +
    '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(2)"/></div></foreignObject>' +
    '<use xlink:href="https://evil.test/sprite.svg#a"/><use href="#shape"/><image href="https://evil.test/t.png"/>' +
    '<a href="javascript:alert(3)"><circle r="2"/></a><rect fill="url(https://evil.test/p)" width="1" height="1"/>' +
    '<style>@import url(https://evil.test/x.css);</style><style>.a{fill:url(#g)}</style><animate attributeName="href" to="javascript:x"/></svg>';
  const clean = sanitiseSvgLogo(dirty) ?? '';
  for (const banned of [
    'script',
    'alert',
    'onload',
    'onclick',
    'foreignObject',
    'evil.test',
    'javascript',
    '<image',
    '<a',
    'animate',
    '@import',
  ]) {
    assert.ok(!clean.includes(banned), `${banned} removed: ${clean}`);
  }
  assert.match(clean, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 10 10">/);
  assert.ok(clean.includes('<rect width="10" height="10" fill="red"></rect>'));
  assert.ok(clean.includes('<use href="#shape"></use>'));
  assert.ok(clean.includes('.a{fill:url(#g)}'));
});

test('a DOCTYPE and its entities go; text is escaped again', () => {
  const clean =
    sanitiseSvgLogo(
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY boom "BOOM">]><svg ${NS}><text>&boom; a &lt;b&gt;</text></svg>`,
    ) ?? '';
  assert.ok(!clean.includes('DOCTYPE') && !clean.includes('ENTITY') && !clean.includes('BOOM'), clean);
  assert.ok(clean.includes('<text>&amp;boom; a &lt;b&gt;</text>'), clean);
});

test('no SVG root, or more than one: not a logo', () => {
  assert.equal(sanitiseSvgLogo('<html><body>hi</body></html>'), null);
  assert.equal(sanitiseSvgLogo(`<svg ${NS}/><svg ${NS}/>`), null);
});

test('an upload is told by its bytes, not its name: PNG, SVG, or refused', () => {
  assert.deepEqual(readLogo(Buffer.from('GIF89a....')), { problem: 'notImage' });
  assert.deepEqual(readLogo(Buffer.alloc(100 * 1024 + 1, 0x20)), { problem: 'tooLarge' });
  const broken = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Buffer.alloc(40)]);
  assert.deepEqual(readLogo(broken), { problem: 'badPng' });
  // A side past the bound, in a header that is otherwise whole; in a broken one it is no PNG.
  const huge = PNG.sync.write(new PNG({ width: 1, height: 1 }));
  huge.writeUInt32BE(5000, 16);
  assert.deepEqual(readLogo(huge), { problem: 'pngTooBig' });
  const brokenHuge = Buffer.from(broken);
  brokenHuge.writeUInt32BE(5000, 16);
  assert.deepEqual(readLogo(brokenHuge), { problem: 'badPng' });
  const svg = readLogo(
    Buffer.from(
      `\uFEFF<?xml version="1.0"?>\n<!-- made by hand --><svg ${NS}><script>x()</script><circle r="1"/></svg>`,
    ),
  );
  assert.ok('logo' in svg && svg.logo.type === 'svg');
  assert.equal(Buffer.from(svg.logo.bytes).toString(), `<svg ${NS}><circle r="1"></circle></svg>`);
});
