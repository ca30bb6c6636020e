import { ValidationError } from '../../core/shared/errors.ts';
import { staticEntries, type StaticLinkSource } from '../../core/links/static-links.ts';
import { keysOf, STATIC_FORMATS, staticWriter, type StaticFormat } from './static-formats.ts';

export interface ExportStaticDeps {
  staticLinks: StaticLinkSource;
  /** APP_URL, whose host name and path key the app's own links. */
  appUrl: string;
  redirectStatus: number;
  /** Standard output, written as the pages are read. */
  write: (text: string) => void;
  /** Standard error: the links left out, each with its reason. */
  warn: (text: string) => void;
}

/** How many links are read at a time: memory holds one page's, however many there are. */
const PAGE = 500;

/**
 * `linkpix export-static --format nginx|caddy|json`: the plain links as a map a web server can
 * answer from while linkpix is away (docs/operations.md). Prints nothing of its own on standard
 * output but the map; the summary and the links left out go to standard error.
 */
export const exportStaticCommand = {
  usage:
    'export-static --format nginx|caddy|json              print the plain links as a static map (the others, with why, on stderr)',
  async run(deps: ExportStaticDeps, flags: Record<string, string | undefined>): Promise<undefined> {
    const format = (flags.format ?? '') as StaticFormat;
    if (!STATIC_FORMATS.includes(format))
      throw ValidationError.of('format', `--format must be one of: ${STATIC_FORMATS.join(', ')}.`);
    const url = new URL(deps.appUrl);
    const appBase = `${url.hostname.toLowerCase()}${url.pathname.replace(/\/+$/, '')}`;
    const writer = staticWriter(format, { appBase, status: deps.redirectStatus });
    let written = 0;
    let skipped = 0;
    deps.write(writer.head());
    for await (const entry of staticEntries(deps.staticLinks, PAGE)) {
      const keys = keysOf(entry, appBase);
      if (entry.kind === 'skipped') {
        skipped++;
        deps.warn(`skipped ${keys[0]}: ${entry.reason}`);
        continue;
      }
      const out = writer.link(keys, entry.url);
      if ('refused' in out) {
        skipped++;
        deps.warn(`skipped ${keys[0]}: ${out.refused}`);
        continue;
      }
      written++;
      deps.write(out.text);
    }
    deps.write(writer.tail());
    deps.warn(`export-static: ${written} links written, ${skipped} left out`);
    return undefined;
  },
};
