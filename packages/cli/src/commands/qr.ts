import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { optionalWhole, text, whole, type Command } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { json } from '../output.js';

export const qr: Command = {
  synopsis: 'qr ID --out FILE.png|FILE.svg [--size PIXELS]',
  summary: 'write the link’s QR code',
  options: { out: { type: 'string' }, size: { type: 'string' } },
  args: ['ID'],
  async run(context) {
    const id = whole(context.args[0] ?? '', 'ID');
    const out = text(context.flags, 'out');
    if (!out) throw new UsageError('qr needs --out FILE (.png or .svg)');
    const format = extname(out).toLowerCase() === '.svg' ? 'svg' : 'png';
    const size = optionalWhole(context.flags, 'size');
    const bytes = await context.client().links.qr(id, { format, ...(size === undefined ? {} : { size }) });
    writeFileSync(out, bytes);
    context.io.out(context.flags.json ? json({ out, format, bytes: bytes.length }) : `Wrote ${out}.`);
  },
};
