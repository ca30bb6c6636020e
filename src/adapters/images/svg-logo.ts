import { Parser } from 'htmlparser2';

// What a logo may hold: shapes, paint and their grouping. Everything else goes with its content:
// script, foreignObject (HTML inside an SVG), image, a, animate and set (which can write an href),
// iframe, and whatever this list does not name.
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'title',
  'desc',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
]);

const ATTRIBUTES = new Set([
  'xmlns',
  'xmlns:xlink',
  'version',
  'id',
  'class',
  'style',
  'viewBox',
  'preserveAspectRatio',
  'transform',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'width',
  'height',
  'd',
  'points',
  'pathLength',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'color',
  'display',
  'visibility',
  'clip-path',
  'clip-rule',
  'mask',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'dx',
  'dy',
  'href',
  'xlink:href',
]);

const TEXT_OF = new Set(['style', 'title', 'desc', 'text', 'tspan']);
const NAMESPACES: Record<string, string> = {
  xmlns: 'http://www.w3.org/2000/svg',
  'xmlns:xlink': 'http://www.w3.org/1999/xlink',
};

/** A reference to anything but a fragment of the logo itself (url(#id)), or a CSS import. */
const OUTSIDE_REFERENCE = /@import|url\s*\(\s*(?!['"]?#)|expression\s*\(|javascript:/i;

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function keptValue(name: string, value: string): string | null {
  if (name === 'href' || name === 'xlink:href') return /^#[\w.:-]+$/.test(value) ? value : null;
  if (name in NAMESPACES) return NAMESPACES[name] ?? null;
  return OUTSIDE_REFERENCE.test(value) ? null : value;
}

/**
 * An uploaded SVG rebuilt from an allow-list (docs/design/qr.md): only the elements and attributes
 * above, no event attribute, no reference outside the logo, no DOCTYPE (so no entity of its
 * own), no processing instruction or comment; text escaped again. Null when no `<svg>` is left.
 */
export function sanitiseSvgLogo(source: string): string | null {
  const out: string[] = [];
  const open: Array<{ name: string; keep: boolean }> = [];
  let skipping = 0;
  let roots = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (open.length === 0) roots++;
        const keep =
          skipping === 0 && ELEMENTS.has(name) && (name === 'svg' ? open.length === 0 && roots === 1 : open.length > 0);
        open.push({ name, keep });
        if (!keep) {
          skipping++;
          return;
        }
        const attrs = Object.entries(attributes)
          .filter(([attr]) => ATTRIBUTES.has(attr))
          .map(([attr, value]) => [attr, keptValue(attr, value)] as const)
          .filter((pair): pair is readonly [string, string] => pair[1] !== null)
          .map(([attr, value]) => ` ${attr}="${escape(value)}"`);
        if (name === 'svg' && !('xmlns' in attributes)) attrs.unshift(` xmlns="${NAMESPACES.xmlns}"`);
        out.push(`<${name}${attrs.join('')}>`);
      },
      ontext(text) {
        const current = open[open.length - 1];
        if (skipping > 0 || !current || !TEXT_OF.has(current.name)) return;
        if (current.name === 'style' && OUTSIDE_REFERENCE.test(text)) return;
        out.push(escape(text));
      },
      onclosetag(name) {
        const closed = open.pop();
        if (!closed) return;
        if (closed.keep) out.push(`</${name}>`);
        else skipping--;
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeSelfClosing: true },
  );
  parser.end(source);
  return roots === 1 && out.length > 0 && open.length === 0 ? out.join('') : null;
}
