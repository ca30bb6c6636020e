import { html, type RawHtml } from '../../shared/html/html.ts';

const WIDTH = 64;
const HEIGHT = 20;
/** Room for the stroke at the top and bottom edges. */
const PAD = 2;

/**
 * A trend as an inline SVG line (no script, no request, no style attribute: the CSP allows it),
 * scaled to its own highest day; a flat line at the bottom when every day is zero. The figures
 * themselves are in `label`, for those who do not see the line.
 */
export function sparkline(values: readonly number[], label: string): RawHtml {
  const max = Math.max(0, ...values);
  const step = values.length > 1 ? WIDTH / (values.length - 1) : 0;
  const points = values
    .map((v, i) => {
      const y = HEIGHT - PAD - (max === 0 ? 0 : (v / max) * (HEIGHT - 2 * PAD));
      return `${round(i * step)},${round(y)}`;
    })
    .join(' ');
  return html`<svg class="sparkline" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${label}" focusable="false"><polyline points="${points}"/></svg>`;
}

const round = (n: number) => Math.round(n * 10) / 10;
