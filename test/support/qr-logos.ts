import { PNG } from 'pngjs';

/** A 40 px opaque green PNG: a logo whose colour is found again in the code's centre. */
export function greenPng(): Buffer {
  const png = new PNG({ width: 40, height: 40 });
  for (let i = 0; i < 40 * 40; i++) png.data.set([20, 160, 60, 255], i * 4);
  return PNG.sync.write(png);
}

/** An SVG logo with a script and a handler, which the sanitiser must drop, and a circle it keeps. */
export const DIRTY_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><circle cx="5" cy="5" r="5" fill="#c00"/></svg>';

/**
 * A PNG of `side` × `side` pixels written at `bitDepth` bits a sample, RGBA unless told: all one
 * colour, so it deflates to a few kilobytes whatever it takes decoded (1024 px at 16 bits: 8 KB
 * of file, 8 MB of pixels).
 */
export function deepPng(side: number, bitDepth: 8 | 16, colorType: 2 | 6 = 6): Buffer {
  const png = new PNG({ width: side, height: side });
  for (let i = 0; i < side * side; i++) png.data.set([20, 160, 60, 255], i * 4);
  return PNG.sync.write(png, { bitDepth, colorType });
}
